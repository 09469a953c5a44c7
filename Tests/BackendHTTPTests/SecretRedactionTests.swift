import AdapterSupport
import Testing

/// `SecretRedaction`, the one redaction both adapters apply to texts a server supplied.
@Suite("Secrets in server-supplied texts are redacted", .timeLimit(.minutes(1)))
struct SecretRedactionTests {
  @Test("a secret that contains another is redacted whole, in any order given")
  func overlappingSecrets() {
    for secrets in [["abcd", "abcdefgh"], ["abcdefgh", "abcd"]] {
      let text = SecretRedaction.redact("bad token abcdefgh, key abcd", secrets: secrets)
      #expect(text == "bad token <redacted>, key <redacted>", "\(secrets)")
    }
  }

  @Test("percent-encoded copies are redacted; secrets under 4 characters are left")
  func encodedAndShort() {
    let text = SecretRedaction.redact("p=pw%2B1%26x raw pw+1&x ab", secrets: ["pw+1&x", "ab"])
    #expect(text == "p=<redacted> raw <redacted> ab")
  }
}
