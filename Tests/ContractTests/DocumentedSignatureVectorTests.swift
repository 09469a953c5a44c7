import Foundation
import Testing
import UserBackendTesting
import UserBackends

/// The published NCMB signature vectors (documentation and SDK tests) that `baas verify`
/// checks: NCMBSignature must reproduce each one.
@Suite(.timeLimit(.minutes(1))) struct DocumentedSignatureVectorTests {
  static let file = ContractSuite.recordings.appendingPathComponent("documentation")
    .appendingPathComponent(DocumentedSignatureVectors.fileName)

  @Test func everyPublishedSignatureIsReproduced() throws {
    let vectors = try DocumentedSignatureVectors.load(file: Self.file)
    #expect(vectors.vectors.count >= 6)
    #expect(vectors.vectors.contains { $0.source.contains("NCMBRequestSpec") })
    #expect(vectors.vectors.contains { $0.source.contains("NCMBSignatureCalTest") })
    for result in vectors.check() {
      #expect(result.problem == nil, "\(result.name): \(result.problem ?? "")")
    }
  }

  /// A vector whose query differs from what was signed fails: the check is sensitive to
  /// the query string (a signature that dropped it would fail the documentation example).
  @Test func aChangedQueryIsReported() throws {
    var vectors = try DocumentedSignatureVectors.load(file: Self.file)
    vectors.vectors = vectors.vectors.filter { $0.url.contains("?") }
    #expect(!vectors.vectors.isEmpty)
    for index in vectors.vectors.indices { vectors.vectors[index].url += "&x=1" }
    #expect(vectors.check().allSatisfy { $0.problem != nil })
  }
}
