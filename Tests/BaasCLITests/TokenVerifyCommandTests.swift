import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

@Suite("baas token verify", .timeLimit(.minutes(2)))
struct TokenVerifyCommandTests {
  /// `baas token verify` against `baas emulator --sign-tokens` accepts a token from
  /// `baas token` and refuses it after one changed byte (signature or claims).
  @Test func signedEmulatorTokenVerifiesAndOneChangedByteDoesNot() async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home, arguments: ["--sign-tokens"])
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    #expect(emulator.banner.contains("signed RS256"))
    baas.environment = [
      "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
      "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
    ]
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    let tokenRun = try await baas.run(["token"])
    #expect(tokenRun.status == 0, "\(tokenRun.allOutput)")
    let token = tokenRun.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(token.hasPrefix("eyJ"))

    // Without FIREBASE_AUTH_EMULATOR_HOST: unsigned tokens are refused, so this is the
    // full RS256 check against the emulator's certificate.
    let verifier = Baas(home: baas.home)
    let certificates =
      "http://127.0.0.1:\(emulator.port)/robot/v1/metadata/x509/securetoken@system.gserviceaccount.com"
    let arguments = [
      "token", "verify", "--project-id", "demo-project", "--certificates-url", certificates,
    ]
    let valid = try await verifier.run(arguments + ["--json"], input: token + "\n")
    #expect(valid.status == 0, "\(valid.allOutput)")
    let claims = try #require(try valid.json()["claims"] as? [String: Any])
    #expect(claims["email"] as? String == account.email)
    #expect(claims["signInProvider"] as? String == "password")
    #expect(!valid.allOutput.contains(token))
    let human = try await verifier.run(arguments, input: token)
    #expect(human.status == 0, "\(human.allOutput)")
    #expect(human.standardOutput.contains("valid Firebase ID token"))

    // With FIREBASE_AUTH_EMULATOR_HOST and FIREBASE_PROJECT_ID (as `baas` itself is
    // configured here), the certificates come from the emulator without any option.
    let viaEnvironment = try await baas.run(["token", "verify", "--json"], input: token)
    #expect(viaEnvironment.status == 0, "\(viaEnvironment.allOutput)")
    // "AA" and "QA" keep the last character canonical (its 4 padding bits zero).
    let tampered = token.dropLast(2) + (token.hasSuffix("AA") ? "QA" : "AA")
    let refusedViaEnvironment = try await baas.run(
      ["token", "verify", "--json"], input: String(tampered))
    #expect(refusedViaEnvironment.status == 1)
    #expect(try refusedViaEnvironment.json()["reason"] as? String == "badSignature")

    let parts = token.split(separator: ".").map(String.init)
    for (name, index) in [("signature", 2), ("claims", 1)] {
      var changed = parts
      changed[index] = Self.changingOneByte(changed[index])
      let forged = changed.joined(separator: ".")
      let refused = try await verifier.run(arguments, input: forged)
      #expect(refused.status == 1, "\(name): \(refused.allOutput)")
      // A changed claims byte may also break the JSON, which is found first.
      let reasons = name == "signature" ? ["badSignature"] : ["badSignature", "malformed"]
      #expect(
        reasons.contains { refused.standardError.contains($0) }, "\(name): \(refused.allOutput)")
      #expect(!refused.allOutput.contains(forged))
    }
    // The emulator's unsigned tokens are still refused outside emulator mode.
    let unsigned = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URL + "." + parts[1] + "."
    let refusedUnsigned = try await verifier.run(arguments + ["--json"], input: unsigned)
    #expect(refusedUnsigned.status == 1)
    #expect(try refusedUnsigned.json()["reason"] as? String == "unsupportedAlgorithm")

    _ = await emulator.stop()
    stopped = true
  }

  @Test func unsignedTokensOnlyWithTheEmulatorHost() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let now = Int(Date().timeIntervalSince1970)
    let claims: [String: Any] = [
      "iss": "https://securetoken.google.com/demo-p", "aud": "demo-p", "sub": "u1",
      "user_id": "u1", "iat": now, "exp": now + 3600, "auth_time": now,
    ]
    let header = Data(#"{"alg":"none","typ":"JWT"}"#.utf8).base64URL
    let payload = try JSONSerialization.data(withJSONObject: claims).base64URL
    let token = header + "." + payload + "."
    // Port 1 refuses connections: nothing is fetched for an unsigned token.
    let emulator = ["FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:1"]
    let accepted = try await baas.run(
      ["token", "verify", "--project-id", "demo-p", "--json"], environment: emulator,
      input: token)
    #expect(accepted.status == 0, "\(accepted.allOutput)")
    let wrongProject = try await baas.run(
      ["token", "verify", "--project-id", "other-project", "--json"], environment: emulator,
      input: token)
    #expect(wrongProject.status == 1)
    // iss is checked before aud.
    #expect(try wrongProject.json()["reason"] as? String == "wrongIssuer")
    let refused = try await baas.run(
      ["token", "verify", "--project-id", "demo-p", "--certificates-url", "http://127.0.0.1:1/c"],
      input: token)
    #expect(refused.status == 1)
    #expect(refused.standardError.contains("unsupportedAlgorithm"))
  }

  @Test func usageErrorsExitTwo() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let noProject = try await baas.run(["token", "verify"], input: "a.b.c")
    #expect(noProject.status == 2, "\(noProject.allOutput)")
    let empty = try await baas.run(["token", "verify", "--project-id", "demo-p"], input: "")
    #expect(empty.status == 2, "\(empty.allOutput)")
    let argument = try await baas.run(["token", "verify", "--project-id", "demo-p", "a.b.c"])
    #expect(argument.status == 2, "\(argument.allOutput)")
    let badURL = try await baas.run(
      ["token", "verify", "--project-id", "demo-p", "--certificates-url", "file:///etc/passwd"],
      input: "a.b.c")
    #expect(badURL.status == 2, "\(badURL.allOutput)")
    // Ports no request can use: refused up front (exit 2), as every other endpoint setting.
    for url in ["http://127.0.0.1:99999/c", "http://127.0.0.1:0/c", "http://h:/c"] {
      let badPort = try await baas.run(
        ["token", "verify", "--project-id", "demo-p", "--certificates-url", url], input: "a.b.c")
      #expect(badPort.status == 2, "\(url): \(badPort.allOutput)")
      #expect(badPort.standardError.contains("--certificates-url"))
    }
    for host in ["127.0.0.1:99999", "127.0.0.1:0"] {
      let badEmulator = try await baas.run(
        ["token", "verify", "--project-id", "demo-p"],
        environment: ["FIREBASE_AUTH_EMULATOR_HOST": host], input: "a.b.c")
      #expect(badEmulator.status == 2, "\(host): \(badEmulator.allOutput)")
    }
    let malformed = try await baas.run(["token", "verify", "--project-id", "demo-p"], input: "a.b")
    #expect(malformed.status == 1)
    #expect(malformed.standardError.contains("malformed"))
  }

  /// `text` with the character in the middle replaced by another base64url character.
  static func changingOneByte(_ text: String) -> String {
    var characters = Array(text)
    let middle = characters.count / 2
    characters[middle] = characters[middle] == "A" ? "B" : "A"
    return String(characters)
  }
}

extension Baas {
  /// Another runner over the same state directory.
  init(home: URL) {
    self.home = home
  }
}

extension Data {
  fileprivate var base64URL: String {
    base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
}
