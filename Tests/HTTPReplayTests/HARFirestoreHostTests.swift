import HTTPReplay
import Testing

@Suite("HAR import hosts", .timeLimit(.minutes(1)))
struct HARFirestoreHostTests {
  @Test("Firestore traffic belongs to a Firebase cassette")
  func firestore() {
    #expect(HARImporter.serviceHosts["firebase"]?.contains("firestore.googleapis.com") == true)
  }
}
