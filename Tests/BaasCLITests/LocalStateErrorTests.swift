import Foundation
import Testing

@Suite("baas reports local state problems as configuration errors", .timeLimit(.minutes(10)))
struct LocalStateErrorTests {
  @Test("an unwritable session file is misconfigured BAAS_HOME, exit 2, naming the file")
  func unwritableSessionFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signup = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signup.status == 0, "\(signup.allOutput)")
    let sessionFile = baas.home.appendingPathComponent("fake.session.json")
    try FileManager.default.removeItem(at: sessionFile)
    try FileManager.default.createDirectory(at: sessionFile, withIntermediateDirectories: false)

    let result = try await baas.run(
      ["signin", "--email", account.email, "--json"], environment: password)
    #expect(result.status == 2, "\(result.allOutput)")
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    let message = try #require(error["message"] as? String)
    #expect(message.contains("BAAS_HOME"))
    #expect(message.contains("session file \(sessionFile.path)"))
    #expect(message.contains("directory"), "no strerror text: \(message)")
    #expect(!message.contains("Unexpected error"))
    #expect(!message.contains("NSCocoaErrorDomain"))
    #expect(!result.allOutput.contains(account.password))

    let human = try await baas.run(["signin", "--email", account.email], environment: password)
    #expect(human.status == 2)
    #expect(human.standardError.contains("misconfigured"))
    #expect(human.standardError.contains(sessionFile.path))
  }

  @Test("an unusable fake database is misconfigured BAAS_HOME; whoami and token still work")
  func unusableDatabase() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    let signup = try await baas.run(["signup", "--email", account.email], environment: password)
    try #require(signup.status == 0, "\(signup.allOutput)")
    let token = try await baas.run(["token"])
    try #require(token.status == 0)
    // The database becomes unopenable (a directory in its place); the session file stays.
    let database = baas.home.appendingPathComponent("fake.sqlite")
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: database.path + suffix)
    }
    try FileManager.default.createDirectory(at: database, withIntermediateDirectories: false)

    let whoami = try await baas.run(["whoami", "--json"])
    #expect(whoami.status == 0, "\(whoami.allOutput)")
    let user = try #require(try whoami.json()["user"] as? [String: Any])
    #expect(user["email"] as? String == account.email)
    let again = try await baas.run(["token"])
    #expect(again.status == 0, "\(again.allOutput)")
    #expect(again.standardOutput == token.standardOutput)

    let signin = try await baas.run(
      ["signin", "--email", account.email, "--json"], environment: password)
    #expect(signin.status == 2, "\(signin.allOutput)")
    let error = try #require(try signin.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    let message = try #require(error["message"] as? String)
    #expect(message.contains("BAAS_HOME"))
    #expect(message.contains(database.path))
    #expect(!message.contains("Unexpected error"))
  }
}
