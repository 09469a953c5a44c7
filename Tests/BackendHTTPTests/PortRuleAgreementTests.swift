import BackendHTTP
import Testing
import UserBackendKit

/// The port rule is written twice (UserBackendKit for the photo URL, BackendHTTP for every
/// setting and the emulator's Host field) because neither module depends on the other;
/// here, where both are seen, they must read every port alike.
@Suite("Port rule: UserBackendKit and BackendHTTP agree", .timeLimit(.minutes(1)))
struct PortRuleAgreementTests {
  static let inputs: [String] = {
    var texts = [
      "", "0", "00", "065", "0080", "1", "65", "80", "65535", "65536", "99999", "100000",
      "+80", "-1", " 80", "80 ", "8a", "٣", "１", "18446744073709551617", ":", "8080:",
    ]
    for port in stride(from: 0, through: 70_000, by: 997) { texts.append(String(port)) }
    return texts
  }()

  @Test("every input is read alike", arguments: inputs)
  func agree(text: String) {
    #expect(CredentialValidation.portNumber(text) == URLLoaderSupport.portNumber(text))
  }

  @Test("leading zeros and an empty port are refused by both")
  func refusals() {
    for text in ["", "065", "0"] {
      #expect(CredentialValidation.portNumber(text) == nil)
      #expect(URLLoaderSupport.portNumber(text) == nil)
    }
    #expect(CredentialValidation.portNumber("65") == 65)
  }
}
