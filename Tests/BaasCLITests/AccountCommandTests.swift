import Foundation
import Testing

@Suite("baas account commands across processes (fake backend)", .timeLimit(.minutes(10)))
struct AccountCommandTests {
  @Test("signup, then whoami in another process shows the user")
  func signUpThenWhoami() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signUp.status == 0, "\(signUp.standardError)")
    #expect(signUp.standardOutput.contains(account.email))

    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 0)
    #expect(whoami.standardOutput.contains(account.email))

    let json = try await baas.run(["whoami", "--json"]).json()
    let user = try #require(json["user"] as? [String: Any])
    #expect(user["email"] as? String == account.email)
    #expect(user["providers"] as? [String] == ["password"])
    #expect((user["id"] as? String)?.isEmpty == false)
  }

  @Test("signout, then whoami exits 1 with notSignedIn")
  func signOutThenWhoami() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.standardError)")

    let signOut = try await baas.run(["signout", "--json"])
    #expect(signOut.status == 0)
    #expect(try signOut.json()["user"] is NSNull)

    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 1)
    #expect(whoami.standardError.contains("notSignedIn"))
    #expect(whoami.standardOutput.isEmpty)

    let whoamiJSON = try await baas.run(["whoami", "--json"])
    #expect(whoamiJSON.status == 1)
    let error = try #require(try whoamiJSON.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "notSignedIn")

    let again = try await baas.run(["signout"])
    #expect(again.status == 0, "signing out twice is not an error")
  }

  @Test("signin in a new process after signup; the session file is mode 0600")
  func signInAndSessionFileMode() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let environment = ["BAAS_PASSWORD": account.password]
    let signUp = try await baas.run(["signup", "--email", account.email], environment: environment)
    try #require(signUp.status == 0, "\(signUp.standardError)")
    let signOut = try await baas.run(["signout"])
    try #require(signOut.status == 0)
    let signIn = try await baas.run(
      ["signin", "--email", account.email, "--json"], environment: environment)
    #expect(signIn.status == 0, "\(signIn.allOutput)")

    let sessionFile = baas.home.appendingPathComponent("fake.session.json")
    let attributes = try FileManager.default.attributesOfItem(atPath: sessionFile.path)
    let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
    #expect(mode & 0o777 == 0o600)
    let contents = try String(contentsOf: sessionFile, encoding: .utf8)
    #expect(!contents.contains(account.password))
  }

  @Test("token prints only the bearer token, and exits 1 when signed out")
  func token() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let signedOut = try await baas.run(["token"])
    #expect(signedOut.status == 1)
    #expect(signedOut.standardOutput.isEmpty)
    #expect(signedOut.standardError.contains("notSignedIn"))

    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0)
    let token = try await baas.run(["token"])
    #expect(token.status == 0)
    let lines = token.standardOutput.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first.map { !$0.contains(" ") && $0.count > 10 } == true)
    let refreshed = try await baas.run(["token", "--refresh"])
    #expect(refreshed.status == 0)
    #expect(refreshed.standardOutput.split(separator: "\n").count == 1)
  }

  @Test("a username account works too")
  func username() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let name = "user\(UUID().uuidString.prefix(6).lowercased())"
    let signUp = try await baas.run(
      ["signup", "--username", name, "--json"], environment: ["BAAS_PASSWORD": "secret-pw-1"])
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    let user = try #require(try signUp.json()["user"] as? [String: Any])
    #expect(user["username"] as? String == name)
    #expect(user["email"] is NSNull)
  }
}
