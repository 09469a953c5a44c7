import Foundation
import Testing

@Suite("baas --json shapes, errors and exit codes", .timeLimit(.minutes(10)))
struct OutputShapeTests {
  @Test(
    "signup --json prints exactly {\"user\":{…}} with the user fields, unknown ones null"
  )
  func userShape() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let result = try await baas.run(
      ["signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(result.status == 0)
    #expect(result.standardOutput.split(separator: "\n").count == 1)
    let json = try result.json()
    #expect(Set(json.keys) == ["user"])
    let user = try #require(json["user"] as? [String: Any])
    #expect(
      Set(user.keys) == [
        "id", "email", "username", "phoneNumber", "displayName", "photoURL", "isAnonymous",
        "providers", "emailVerified", "createdAt", "lastSignInAt",
      ])
    #expect(user["phoneNumber"] is NSNull)
    #expect(user["photoURL"] is NSNull)
    for key in ["createdAt", "lastSignInAt"] {
      // ISO 8601 when the backend says, else null.
      if let text = user[key] as? String {
        #expect(text.hasSuffix("Z") && text.contains("T"), "\(key): \(text)")
      } else {
        #expect(user[key] is NSNull, "\(key)")
      }
    }
    #expect(user["isAnonymous"] as? Bool == false)
  }

  @Test("a failed operation prints {\"error\":{code,backendCode,message}} and exits 1")
  func errorShape() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let first = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(first.status == 0)
    let duplicate = try await baas.run(
      ["signup", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(duplicate.status == 1)
    let json = try duplicate.json()
    #expect(Set(json.keys) == ["error"])
    let error = try #require(json["error"] as? [String: Any])
    #expect(Set(error.keys) == ["code", "backendCode", "message"])
    #expect(error["code"] as? String == "accountAlreadyExists")

    let wrong = try await baas.run(
      ["signin", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": "not-the-password"])
    #expect(wrong.status == 1)
    let wrongError = try #require(try wrong.json()["error"] as? [String: Any])
    #expect(wrongError["code"] as? String == "invalidCredentials")
  }

  @Test("human errors go to standard error with the portable code and a hint")
  func humanError() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      ["signup", "--email", "not-an-email"], environment: ["BAAS_PASSWORD": "secret-pw-1"])
    #expect(result.status == 1)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.contains("invalidEmail"))
  }

  @Test("a missing API key is a configuration error naming the variable, exit 2")
  func misconfigured() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["--backend", "firebase", "whoami", "--json"])
    #expect(result.status == 2)
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    #expect((error["message"] as? String)?.contains("FIREBASE_API_KEY") == true)
  }

  @Test(
    "usage errors exit 2",
    arguments: [
      [], ["frobnicate"], ["signup"], ["signup", "--email"], ["signup", "--emial", "a@b.c"],
      ["signup", "--email", "a@b.c", "--username", "u"], ["whoami", "extra"],
      ["--backend"], ["--bogus", "whoami"], ["verify", "--format", "yaml"],
      ["cassette"], ["cassette", "polish"], ["ncmb", "sign", "GET"],
      ["signin", "--anonymous", "--email", "a@b.c"], ["whoami", "--json=yes"],
      ["signup", "--email", "--json"], ["signin", "--username", "--password-stdin"],
      ["account"], ["account", "frobnicate"], ["account", "update"],
      ["account", "update", "--photo-url", "ftp://example.com/a.png"],
      ["account", "verify-email"], ["account", "reset-password"], ["account", "link"],
      ["account", "reauth", "--email", "a@b.c", "--username", "u"],
      ["account", "reload", "extra"], ["doc"], ["doc", "set"], ["doc", "set", "=x"],
      ["doc", "get", "--user"], ["doc", "delete", "extra"],
    ])
  func usage(arguments: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments, environment: ["BAAS_PASSWORD": "secret-pw-1"])
    #expect(result.status == 2, "\(arguments): \(result.allOutput)")
    #expect(result.standardError.contains("usage"))
  }

  @Test("a configuration error is reported before any password is asked for")
  func configurationBeforePassword() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["--backend", "ncmb", "signin", "--username", "u"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("NCMB_APPLICATION_KEY"), "\(result.allOutput)")
  }

  @Test("an unknown --backend exits 2 and lists the backends")
  func unknownBackend() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["--backend", "parse", "whoami"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("fake, firebase, ncmb"))
  }
}
