import Foundation
import Testing

@Suite(
  "baas phone, anonymous sign-in, password reset and account deletion (fake)",
  .timeLimit(.minutes(10)))
struct CapabilityCommandTests {
  @Test("phone start, then phone verify in another process signs in with the number")
  func phoneSignIn() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let start = try await baas.run(["phone", "start", "--phone-number", "+15550001234", "--json"])
    #expect(start.status == 0, "\(start.allOutput)")
    let verification = try #require(try start.json()["verification"] as? [String: Any])
    #expect(verification["phoneNumber"] as? String == "+15550001234")
    let code = try #require(
      start.standardError.split(separator: " ").last.map {
        $0.trimmingCharacters(in: .whitespacesAndNewlines)
      })
    #expect(code.count == 6)

    let wrongCode = code == "000000" ? "111111" : "000000"
    let wrong = try await baas.run(["phone", "verify", "--code", wrongCode])
    #expect(wrong.status == 1)
    #expect(wrong.standardError.contains("SMS code"))

    let verify = try await baas.run(["phone", "verify", "--code", code])
    #expect(verify.status == 0, "\(verify.allOutput)")
    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 0)
    #expect(whoami.standardOutput.contains("+15550001234"))
    let json = try await baas.run(["whoami", "--json"])
    let user = try #require(try json.json()["user"] as? [String: Any])
    #expect(user["phoneNumber"] as? String == "+15550001234")
    #expect(user["isAnonymous"] as? Bool == false)
  }

  @Test("phone verify without a pending verification fails with invalidInput")
  func phoneVerifyWithoutStart() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["phone", "verify", "--code", "123456", "--json"])
    #expect(result.status == 1)
    let error = try #require(try result.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidInput")
  }

  @Test("signin --anonymous, then delete-account, then whoami is signed out")
  func anonymousAndDelete() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let anonymous = try await baas.run(["signin", "--anonymous", "--json"])
    #expect(anonymous.status == 0, "\(anonymous.allOutput)")
    let user = try #require(try anonymous.json()["user"] as? [String: Any])
    #expect(user["providers"] as? [String] == ["anonymous"])
    #expect(user["isAnonymous"] as? Bool == true)

    let delete = try await baas.run(["delete-account", "--json"])
    #expect(delete.status == 0, "\(delete.allOutput)")
    #expect(try delete.json()["user"] is NSNull)
    let whoami = try await baas.run(["whoami"])
    #expect(whoami.status == 1)
    let again = try await baas.run(["delete-account"])
    #expect(again.status == 1)
    #expect(again.standardError.contains("notSignedIn"))
  }

  @Test("reset-password requires --email and reports invalid addresses")
  func resetPassword() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    _ = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    let reset = try await baas.run(["reset-password", "--email", account.email])
    #expect(reset.status == 0, "\(reset.allOutput)")
    let missing = try await baas.run(["reset-password"])
    #expect(missing.status == 2)
    let bad = try await baas.run(["reset-password", "--email", "nope", "--json"])
    #expect(bad.status == 1)
    let error = try #require(try bad.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "invalidEmail")
  }

  @Test("a capability the backend lacks is reported as unsupported with a hint")
  func unsupported() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    // NCMB has no phone sign-in; the adapter refuses before any network call.
    let result = try await baas.run(
      ["--backend", "ncmb", "phone", "start", "--phone-number", "+15550001234"],
      environment: [
        "NCMB_APPLICATION_KEY": "app", "NCMB_CLIENT_KEY": "client",
        "NCMB_BASE_URL": "http://127.0.0.1:9",
      ])
    #expect(result.status == 1)
    #expect(result.standardError.contains("unsupported"))
    #expect(result.standardError.contains("hint:"))
  }
}
