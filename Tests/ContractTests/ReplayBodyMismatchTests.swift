import Foundation
import Testing
import UserBackendContracts
import UserBackendTesting
import UserBackends

/// A cassette whose recorded request body differs from what the adapter sends must not
/// answer it: the contract fails, and the failure shows the differing body field with both
/// values. Replay that matched on method and URL alone would let these runs pass.
@Suite(.timeLimit(.minutes(2))) struct ReplayBodyMismatchTests {
  /// (backend, the JSON member of the first request's body to change).
  static let cases: [(WireBackend, String)] = [(.firebase, "email"), (.ncmb, "mailAddress")]

  @Test(arguments: cases)
  func aTamperedRequestBodyFailsTheContractWithADiff(_ backend: WireBackend, _ member: String)
    async throws
  {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = ContractSuite.recordings.appendingPathComponent("\(backend.rawValue)/sign-in.har")
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
    var log = try #require(json["log"] as? [String: Any])
    var entries = try #require(log["entries"] as? [[String: Any]])
    var request = try #require(entries[0]["request"] as? [String: Any])
    var postData = try #require(request["postData"] as? [String: Any])
    let text = try #require(postData["text"] as? String)
    var body = try #require(
      try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    #expect(body[member] is String)
    body[member] = "tampered@example.com"
    postData["text"] = String(
      decoding: try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys]),
      as: UTF8.self)
    request["postData"] = postData
    entries[0]["request"] = request
    log["entries"] = entries
    json["log"] = log
    let target = directory.appendingPathComponent("\(backend.rawValue)/sign-in.har")
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: json).write(to: target)

    let contract = try loadContract("sign-in")
    let untouched = await ContractRunner.run(
      contract, on: ReplayHarness(backend: backend, recordings: ContractSuite.recordings))
    #expect(untouched.outcome == .passed)
    let result = await ContractRunner.run(
      contract, on: ReplayHarness(backend: backend, recordings: directory))
    guard case .failed(let failure) = result.outcome else {
      Issue.record("a tampered request body still matched: \(result.outcome)")
      return
    }
    #expect(failure.step == 1, "\(failure)")
    #expect(failure.actual.contains("no unused recorded interaction matches"), "\(failure)")
    // The diff line names the body field and both values (quoting is HTTPReplay's).
    let diff = failure.actual.split(separator: "\n").first { $0.contains("body.\(member):") }
    #expect(diff?.contains("recorded") == true, "\(failure)")
    #expect(diff?.contains("tampered@example.com") == true, "\(failure)")
    #expect(diff?.contains("live") == true && diff?.contains("u-") == true, "\(failure)")
  }
}
