import NCMBSigning
import Foundation
import NCMBUserBackend
import Testing

/// Issue 16 item 6: a clock pushed far away never traps the timestamp conversion.
@Suite("NCMBSignature.timestamp for any date", .timeLimit(.minutes(1)))
struct NCMBTimestampBoundsTests {
  @Test(
    "dates outside years 1-9999 are clamped, not trapped",
    arguments: [
      (1e300, "9999-12-31T23:59:59.999Z"), (-1e300, "0001-01-01T00:00:00.000Z"),
      (Double.greatestFiniteMagnitude, "9999-12-31T23:59:59.999Z"),
      (1e16, "9999-12-31T23:59:59.999Z"), (1_386_038_675.452, "2013-12-03T02:44:35.452Z"),
    ])
  func clamped(_ seconds: Double, _ expected: String) {
    #expect(NCMBSignature.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
  }
}
