import BackendHTTP
import Foundation
import HTTPReplay
import Testing
import UserBackendContracts
import UserBackendKit

@testable import UserBackendTesting
import UserBackends

/// A fresh temporary directory for one test.
func makeTemporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory
    .appendingPathComponent("harness-tests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// Loads one contract of the suite.
func loadContract(_ name: String) throws -> Contract {
  try ContractLoader.load(file: ContractSuite.directory.appendingPathComponent(name + ".json"))
}

@Suite(.timeLimit(.minutes(10))) struct RecordingTests {
  /// Re-recording every contract against the in-process emulator writes exactly the
  /// committed cassettes: recording is deterministic and `Recordings/` is up to date.
  @Test(arguments: WireBackend.allCases)
  func aFreshRecordingEqualsTheCommittedCassettes(_ backend: WireBackend) async throws {
    let output = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: output) }
    let recorder = EmulatorRecordingHarness(backend: backend, outputDirectory: output)
    let contracts = try ContractLoader.load(directory: ContractSuite.directory)
    let report = await ContractRunner(contracts: contracts, harnesses: [recorder]).run()
    #expect(report.failedCount == 0, "\(report.render(.text))")

    let committed = ContractSuite.recordings.appendingPathComponent(backend.rawValue)
    let fresh = output.appendingPathComponent(backend.rawValue)
    let names = try FileManager.default.contentsOfDirectory(atPath: fresh.path).sorted()
    let committedNames = try FileManager.default.contentsOfDirectory(atPath: committed.path)
      .filter { $0.hasSuffix(".har") }.sorted()
    #expect(names == committedNames)
    for name in names {
      let recorded = try Data(contentsOf: fresh.appendingPathComponent(name))
      let stored = try Data(contentsOf: committed.appendingPathComponent(name))
      #expect(
        recorded == stored,
        "\(backend.rawValue)/\(name) differs from a fresh recording; re-record with `swift run baas record --backend \(backend.rawValue) --emulator`"
      )
    }
  }

  /// Every committed cassette, the hand-written documentation ones included, passes the
  /// structure check and the leak scan (`baas cassette lint Recordings`), and no SMS code
  /// is stored in the clear.
  @Test func everyCommittedCassettePassesLint() throws {
    let findings = CassetteLinter.lint(directory: ContractSuite.recordings)
    #expect(findings.isEmpty, "\(findings.map(\.description))")
    for backend in ["firebase"] {
      let folder = ContractSuite.recordings.appendingPathComponent(backend)
      for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
      where name.hasPrefix("phone-sign-in") {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        #expect(
          text.range(of: #""code" : "[0-9]{6}""#, options: .regularExpression) == nil, "\(name)")
        #expect(text.contains("<SMS_CODE_"), "\(name)")
      }
    }
  }

  @Test func aSkippedContractWritesNoCassette() async throws {
    let output = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: output) }
    let recorder = EmulatorRecordingHarness(backend: .ncmb, outputDirectory: output)
    let result = await ContractRunner.run(try loadContract("phone-sign-in"), on: recorder)
    #expect(result.outcome == .skipped(reason: "missing capability phoneNumberSignIn"))
    #expect(
      !FileManager.default.fileExists(atPath: recorder.cassetteURL(for: "phone-sign-in").path))
  }
}

@Suite(.timeLimit(.minutes(10))) struct ReplayHarnessTests {
  @Test func anApplicableContractWithoutACassetteFailsNamingTheFile() async throws {
    let empty = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let harness = ReplayHarness(backend: .firebase, recordings: empty)
    let result = await ContractRunner.run(try loadContract("sign-in"), on: harness)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.actual.contains("no cassette"))
    #expect(failure.actual.contains("firebase/sign-in.har"))
    #expect(failure.actual.contains("baas record --backend firebase --emulator"))
  }

  @Test func aContractTheBackendCannotRunIsSkippedEvenWithoutACassette() async throws {
    let empty = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: empty) }
    let harness = ReplayHarness(backend: .ncmb, recordings: empty)
    let result = await ContractRunner.run(try loadContract("phone-sign-in"), on: harness)
    #expect(result.outcome == .skipped(reason: "missing capability phoneNumberSignIn"))
  }

  /// A cassette with one more entry than the run asks for fails at the end of the run.
  @Test(arguments: WireBackend.allCases)
  func unusedEntriesFailTheRun(_ backend: WireBackend) async throws {
    let directory = try makeTemporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = ContractSuite.recordings.appendingPathComponent("\(backend.rawValue)/sign-in.har")
    var json = try #require(
      try JSONSerialization.jsonObject(with: Data(contentsOf: source)) as? [String: Any])
    var log = try #require(json["log"] as? [String: Any])
    var entries = try #require(log["entries"] as? [Any])
    entries.append(try #require(entries.last))
    log["entries"] = entries
    json["log"] = log
    let target = directory.appendingPathComponent("\(backend.rawValue)/sign-in.har")
    try FileManager.default.createDirectory(
      at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try JSONSerialization.data(withJSONObject: json).write(to: target)

    let harness = ReplayHarness(backend: backend, recordings: directory)
    let result = await ContractRunner.run(try loadContract("sign-in"), on: harness)
    guard case .failed(let failure) = result.outcome else {
      Issue.record("expected a failure, got \(result.outcome)")
      return
    }
    #expect(failure.operation == "finish")
  }

  /// Replay uses the recorded variables, not the runner's proposals.
  @Test func theRecordedVariablesAreUsed() async throws {
    let harness = ReplayHarness(backend: .firebase, recordings: ContractSuite.recordings)
    let contract = try loadContract("sign-in")
    let environment = try await harness.makeEnvironment(
      for: contract, variables: ["email": "proposed@example.com"])
    let email = try #require(environment.variables["email"])
    #expect(email != "proposed@example.com")
    #expect(email.hasSuffix("@example.com"))
    #expect(environment.clock != nil)
  }
}

@Suite(.timeLimit(.minutes(10))) struct ContractHarnessesTests {
  @Test func withoutCredentialsTheDefaultsAreTheFiveOfflineHarnesses() {
    let options = ContractHarnesses.Options(environment: ["HOME": "/tmp"])
    #expect(
      ContractHarnesses.defaultNames(options: options) == [
        "fake", "firebase-emulator", "ncmb-emulator", "firebase-replay", "ncmb-replay",
      ])
    #expect(
      ContractHarnesses.defaults(options: options).map(\.name)
        == ContractHarnesses.defaultNames(options: options))
  }

  @Test func configuredCredentialsAddTheLiveHarnesses() {
    let options = ContractHarnesses.Options(environment: [
      "HOME": "/tmp", "FIREBASE_API_KEY": "test-key", "NCMB_APPLICATION_KEY": "app",
      "NCMB_CLIENT_KEY": "client",
    ])
    #expect(
      ContractHarnesses.defaultNames(options: options)
        == ContractHarnesses.offlineDefaultNames + ["firebase-live", "ncmb-live"])
  }

  @Test func everyKnownNameBuildsAHarnessOfThatName() throws {
    let options = ContractHarnesses.Options(environment: [
      "HOME": "/tmp", "FIREBASE_API_KEY": "test-key", "NCMB_APPLICATION_KEY": "app",
      "NCMB_CLIENT_KEY": "client",
    ])
    for name in ContractHarnesses.knownNames {
      #expect(try ContractHarnesses.named(name, options: options).name == name)
    }
  }

  @Test func aLiveHarnessWithoutCredentialsIsAnErrorNamingTheVariable() {
    let options = ContractHarnesses.Options(environment: ["HOME": "/tmp"])
    #expect {
      try ContractHarnesses.named("firebase-live", options: options)
    } throws: { error in
      "\(error)".contains("FIREBASE_API_KEY")
    }
  }

  @Test func anUnknownNameListsTheKnownOnes() {
    #expect {
      try ContractHarnesses.list("fake,nope")
    } throws: { error in
      "\(error)".contains("firebase-emulator-http")
    }
  }
}

@Suite(.timeLimit(.minutes(10))) struct ReplaySignatureTests {
  /// The replay harness recomputes each NCMB request signature with the replay client key:
  /// an adapter signing with another key is refused before any entry is used.
  @Test func anNCMBRequestSignedWithAnotherClientKeyIsRefused() async throws {
    let harness = ReplayHarness(backend: .ncmb, recordings: ContractSuite.recordings)
    let contract = try loadContract("sign-up-then-current-user")
    let environment = try await harness.makeEnvironment(for: contract, variables: [:])
    let replay = try #require(environment as? ReplayEnvironment)
    let email = try #require(environment.variables["email"])
    var keys = WireBackend.Keys.replay
    keys.ncmbClientKey = "another-client-key"
    let forged = try WireBackend.ncmb.makeAdapter(
      keys: keys, transport: replay.session.transport, sessionStore: InMemorySessionStore(),
      clock: try #require(environment.clock))
    await #expect(throws: (any Error).self) {
      try await forged.signUp(.email(email, password: "correct-horse-7"))
    }
    // The genuine adapter still gets the recorded answer: nothing was consumed.
    let genuine = try await environment.makeBackend(sessionStore: InMemorySessionStore())
    let session = try await genuine.signUp(.email(email, password: "correct-horse-7"))
    #expect(session.user.email == email)
  }
}

@Suite(.timeLimit(.minutes(2))) struct SessionTokenWitnessTests {
  /// Live and recording environments read an opaque NCMB session token's subject from the
  /// server's answer that handed it out; other answers teach them nothing.
  @Test func theServerAnswerNamesTheTokensUser() {
    let witness = SessionTokenWitness()
    witness.note(
      HTTPResponse(
        status: 201, body: Data(#"{"objectId":"epaKcaYZqsREdSMY","sessionToken":"tok-1"}"#.utf8)))
    witness.note(HTTPResponse(status: 200, body: Data(#"{"sessionToken":"tok-2"}"#.utf8)))
    witness.note(HTTPResponse(status: 200, body: Data("not json".utf8)))
    #expect(witness.subject(of: "tok-1") == "epaKcaYZqsREdSMY")
    #expect(witness.subject(of: "tok-2") == nil)
  }
}
