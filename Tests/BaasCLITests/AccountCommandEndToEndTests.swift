import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `user` object of a `--json` run that succeeded.
private func user(_ result: BaasResult, _ comment: Comment? = nil) throws -> [String: Any] {
  #expect(result.status == 0, "\(comment?.rawValue ?? ""): \(result.allOutput)")
  return try #require(try result.json()["user"] as? [String: Any], "\(result.allOutput)")
}

/// The `error.code` of a `--json` run that failed with exit status 1.
private func errorCode(_ result: BaasResult) throws -> String? {
  #expect(result.status == 1, "\(result.allOutput)")
  return try (result.json()["error"] as? [String: Any])?["code"] as? String
}

/// The out-of-band codes the emulator lists for `email` and `requestType`, newest last.
private func oobCodes(port: Int, email: String, requestType: String) async throws -> [String] {
  let url = try #require(
    URL(string: "http://127.0.0.1:\(port)/emulator/v1/projects/demo-project/oobCodes"))
  let (data, _) = try await URLSession.shared.data(from: url)
  let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  let codes = try #require(object["oobCodes"] as? [[String: Any]], "\(object)")
  return codes.filter {
    $0["email"] as? String == email && $0["requestType"] as? String == requestType
  }
  .compactMap { $0["oobCode"] as? String }
}

/// End to end through the account operations of the fake and the emulator: these need the
/// implementations of issue 20 (the fake's and the emulator's account management).
@Suite("baas account …, end to end (fake, emulator)", .timeLimit(.minutes(10)))
struct AccountCommandEndToEndTests {
  @Test("update, reload, password, reauth on the fake; whoami shows the profile")
  func profileAndPassword() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let other = uniqueAccount()
    let otherSignUp = try await baas.run(
      ["signup", "--email", other.email], environment: ["BAAS_PASSWORD": other.password])
    try #require(otherSignUp.status == 0, "\(otherSignUp.allOutput)")
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")

    let updated = try user(
      try await baas.run([
        "account", "update", "--display-name", "Ada Lovelace", "--photo-url",
        "https://example.com/ada.png", "--json",
      ]))
    #expect(updated["displayName"] as? String == "Ada Lovelace")
    #expect(updated["photoURL"] as? String == "https://example.com/ada.png")
    let shown = try user(try await baas.run(["whoami", "--json"]))
    #expect(shown["displayName"] as? String == "Ada Lovelace")
    let text = try await baas.run(["account", "reload"])
    #expect(text.status == 0, "\(text.allOutput)")
    #expect(text.standardOutput.contains("display name: Ada Lovelace"))
    #expect(text.standardOutput.contains("photo URL: https://example.com/ada.png"))

    let removed = try user(
      try await baas.run(["account", "update", "--display-name", "", "--json"]))
    #expect(removed["displayName"] is NSNull)
    #expect(removed["photoURL"] as? String == "https://example.com/ada.png", "kept")
    let reloaded = try user(try await baas.run(["account", "reload", "--json"]))
    #expect(reloaded["displayName"] is NSNull)
    #expect(reloaded["emailVerified"] as? Bool == false)
    #expect(reloaded["createdAt"] is String)

    let newPassword = "new-" + account.password
    let changed = try await baas.run(
      ["account", "password", "--password-stdin", "--json"], input: newPassword + "\n")
    #expect(try user(changed)["email"] as? String == account.email)
    #expect(!changed.allOutput.contains(newPassword))
    let reauth = try await baas.run(
      ["account", "reauth", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": newPassword])
    #expect(try user(reauth)["id"] as? String == reloaded["id"] as? String)
    _ = try await baas.run(["signout"])
    let old = try await baas.run(
      ["signin", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(try errorCode(old) == "invalidCredentials")
    let new = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": newPassword])
    #expect(new.status == 0, "\(new.allOutput)")

    let mismatch = try await baas.run(
      ["account", "reauth", "--email", other.email, "--json"],
      environment: ["BAAS_PASSWORD": other.password])
    #expect(try errorCode(mismatch) == "userMismatch")
    let hint = try await baas.run(
      ["account", "reauth", "--email", other.email],
      environment: ["BAAS_PASSWORD": other.password])
    #expect(hint.standardError.contains("hint:"), "\(hint.allOutput)")
    let newEmail = "new-" + account.email
    let changedEmail = try user(
      try await baas.run(["account", "update", "--email", newEmail, "--json"]))
    #expect(changedEmail["email"] as? String == newEmail)
    #expect(changedEmail["id"] as? String == reloaded["id"] as? String)
    let taken = try await baas.run(["account", "update", "--email", other.email, "--json"])
    #expect(try errorCode(taken) == "accountAlreadyExists")
  }

  @Test("a guest linked with an email keeps its ID and can sign in with the password")
  func linkGuest() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let guest = try user(try await baas.run(["signin", "--anonymous", "--json"]))
    let account = uniqueAccount()
    let linked = try user(
      try await baas.run(
        ["account", "link", "--email", account.email, "--json"],
        environment: ["BAAS_PASSWORD": account.password]))
    #expect(linked["id"] as? String == guest["id"] as? String)
    #expect(linked["isAnonymous"] as? Bool == false)
    #expect(linked["email"] as? String == account.email)
    _ = try await baas.run(["signout"])
    let signIn = try user(
      try await baas.run(
        ["signin", "--email", account.email, "--json"],
        environment: ["BAAS_PASSWORD": account.password]))
    #expect(signIn["id"] as? String == guest["id"] as? String)
    let again = try await baas.run(
      ["account", "link", "--email", "x-" + account.email, "--json"],
      environment: ["BAAS_PASSWORD": account.password])
    #expect(try errorCode(again) == "invalidInput", "not anonymous any more")
  }

  @Test("signed out, every account command is notSignedIn with a hint")
  func signedOut() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    for arguments in [
      ["account", "reload"], ["account", "update", "--display-name", "x"],
      ["account", "send-verification"], ["account", "password"],
      ["account", "reauth", "--email", "a@example.com"],
    ] {
      let result = try await baas.run(arguments, environment: ["BAAS_PASSWORD": "secret-pw-1"])
      #expect(result.status == 1, "\(arguments): \(result.allOutput)")
      #expect(result.standardError.contains("notSignedIn"), "\(arguments)")
      #expect(result.standardError.contains("hint: sign in first"), "\(arguments)")
    }
    let code = try await baas.run(
      ["account", "verify-email", "--code", "code-SECRET-7", "--json"])
    #expect(try errorCode(code) == "invalidInput")
    #expect(!code.allOutput.contains("SECRET"), "the code is never printed")
  }

  @Test(
    "against the emulator: reset the password and verify the email with the listed codes",
    arguments: ["firebase"])
  func emailFlows(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "BAAS_BACKEND": backend, "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")

    let send = try user(try await baas.run(["account", "send-verification", "--json"]))
    #expect(send["emailVerified"] as? Bool != true)
    let verifyCode = try #require(
      try await oobCodes(port: emulator.port, email: account.email, requestType: "VERIFY_EMAIL")
        .last)
    let verified = try await baas.run(["account", "verify-email", "--code", verifyCode, "--json"])
    #expect(verified.status == 0, "\(verified.allOutput)")
    #expect(try verified.json()["user"] is NSNull)
    #expect(!verified.allOutput.contains(verifyCode))
    let reloaded = try user(try await baas.run(["account", "reload", "--json"]))
    #expect(reloaded["emailVerified"] as? Bool == true)

    let request = try await baas.run(["reset-password", "--email", account.email])
    #expect(request.status == 0, "\(request.allOutput)")
    let resetCode = try #require(
      try await oobCodes(port: emulator.port, email: account.email, requestType: "PASSWORD_RESET")
        .last)
    let newPassword = "reset-" + account.password
    let reset = try await baas.run(
      ["account", "reset-password", "--code", resetCode, "--password-stdin"],
      input: newPassword + "\n")
    #expect(reset.status == 0, "\(reset.allOutput)")
    #expect(!reset.allOutput.contains(resetCode))
    let used = try await baas.run(
      ["account", "reset-password", "--code", resetCode, "--json"],
      environment: ["BAAS_PASSWORD": newPassword])
    #expect(try errorCode(used) == "invalidInput", "a code works once")
    _ = try await baas.run(["signout"])
    let signIn = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": newPassword])
    #expect(signIn.status == 0, "\(signIn.allOutput)")

    let result = await emulator.stop()
    stopped = true
    #expect(result.status == 0)
  }
}
