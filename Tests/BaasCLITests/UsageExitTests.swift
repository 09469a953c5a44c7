import Foundation
import Testing

/// The `N passed, N failed, N skipped` numbers of a text report.
func summaryCounts(_ report: String) -> [Int]? {
  guard let line = report.split(separator: "\n").last(where: { $0.contains(" passed, ") })
  else { return nil }
  let numbers = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
  return numbers.count >= 3 ? Array(numbers.suffix(3)) : nil
}

@Suite("baas usage errors: exit 2, one clear line, JSON with --json", .timeLimit(.minutes(10)))
struct UsageExitTests {
  @Test("verify and record with a missing contracts directory exit 2 naming it")
  func missingContracts() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let missing = baas.home.appendingPathComponent("no-such-contracts").path
    let verify = try await baas.run(["verify", "--contracts", missing, "--backends", "fake"])
    #expect(verify.status == 2, "\(verify.allOutput)")
    #expect(verify.standardError.contains(missing))
    // Outside the repository: no Contracts/ here or in any parent.
    let record = try await baas.run(
      ["record", "--backend", "firebase", "--emulator", "--out", baas.home.path], in: baas.home)
    #expect(record.status == 2, "\(record.allOutput)")
    #expect(record.standardError.contains("Contracts"))
  }

  @Test("verify from a subdirectory finds Contracts/ above it; a repeated harness runs once")
  func verifyFromSubdirectory() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let contracts = try FileManager.default.contentsOfDirectory(
      atPath: repositoryRoot.appendingPathComponent("Contracts").path
    ).filter { $0.hasSuffix(".json") && $0 != "skips.json" }  // skips.json: the skip matrix
    let result = try await baas.run(
      ["verify", "--backends", "fake,fake"],
      in: repositoryRoot.appendingPathComponent("Sources/baas"), timeout: 300)
    #expect(result.status == 0, "\(result.allOutput)")
    let counts = try #require(summaryCounts(result.standardOutput), "\(result.standardOutput)")
    #expect(counts.reduce(0, +) == contracts.count)
  }

  @Test("verify with a missing recordings directory and a replay harness: one error, exit 2")
  func missingRecordings() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let missing = baas.home.appendingPathComponent("no-such-recordings").path
    let result = try await baas.run(
      ["verify", "--backends", "fake,firebase-replay", "--recordings", missing],
      in: repositoryRoot)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains(missing))
    #expect(result.standardOutput.isEmpty, "contracts ran: \(result.standardOutput)")
  }

  @Test(
    "with --json a usage error is also one JSON error object on standard output",
    arguments: [
      ["signup", "--email", "a@example.com", "--bogus", "--json"],
      ["whoami", "--json", "extra"],
      ["signin", "--json"],
    ])
  func usageErrorAsJSON(arguments: [String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments)
    #expect(result.status == 2, "\(result.allOutput)")
    let json = try result.json()
    let error = try #require(json["error"] as? [String: Any], "\(result.standardOutput)")
    #expect(error["code"] as? String == "invalidInput")
    #expect(error["backendCode"] is NSNull)
    #expect((error["message"] as? String)?.isEmpty == false)
  }

  @Test("baas --backend whoami says what is missing")
  func backendWithoutValue() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["--backend", "whoami"])
    #expect(result.status == 2)
    #expect(result.standardError.contains("missing value for --backend"), "\(result.allOutput)")
  }

  @Test(
    "an unknown backend name: one error line naming it and a one-line hint",
    arguments: [
      (["--backend", "nope", "whoami"], [:]),
      (["whoami", "--backend", "nope"], [:]),
      (["whoami"], ["BAAS_BACKEND": "nope"]),
    ] as [([String], [String: String])])
  func unknownBackend(arguments: [String], environment: [String: String]) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments, environment: environment)
    #expect(result.status == 2)
    let lines = result.standardError.split(separator: "\n")
    #expect(lines.count == 2, "\(result.standardError)")
    #expect(lines.first?.contains("\"nope\" is not a known backend") == true)
    #expect(lines.last?.contains("baas --help") == true)
  }

  @Test("ncmb sign checks METHOD, --timestamp and --data")
  func ncmbSignChecks() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let keys = ["NCMB_APPLICATION_KEY": "app-key-1", "NCMB_CLIENT_KEY": "client-key-1"]
    let url = "https://mbaas.api.nifcloud.com/2013-09-01/users"
    let stamp = ["--timestamp", "2013-12-02T02:44:35.452Z"]
    let upper = try await baas.run(["ncmb", "sign", "GET", url] + stamp, environment: keys)
    let lower = try await baas.run(["ncmb", "sign", "get", url] + stamp, environment: keys)
    #expect(upper.status == 0)
    #expect(lower.status == 0, "\(lower.allOutput)")
    #expect(lower.standardOutput == upper.standardOutput)
    for arguments in [
      ["ncmb", "sign", "FROB", url],
      ["ncmb", "sign", "GET", url, "--timestamp", "notatime"],
      ["ncmb", "sign", "POST", url, "--data", "{}"],
      ["ncmb", "sign", "GET", url, "--curl", "--data", "{}"],
    ] {
      let result = try await baas.run(arguments, environment: keys)
      #expect(result.status == 2, "\(arguments): \(result.allOutput)")
    }
    let count = try await baas.run(["ncmb", "sign"], environment: keys)
    #expect(count.status == 2)
    #expect(count.standardError.contains("expected 2 arguments, got 0"), "\(count.standardError)")
  }

  @Test("ncmb sign --curl --data @FILE passes the file to curl, not its contents")
  func ncmbSignDataFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let keys = ["NCMB_APPLICATION_KEY": "app-key-1", "NCMB_CLIENT_KEY": "client-key-1"]
    let body = baas.home.appendingPathComponent("login.json")
    try Data(#"{"userName":"ada","password":"pw-in-a-file-9"}"#.utf8).write(to: body)
    let result = try await baas.run(
      [
        "ncmb", "sign", "POST", "https://mbaas.api.nifcloud.com/2013-09-01/login", "--curl",
        "--data", "@\(body.path)",
      ], environment: keys)
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardOutput.contains("--data-binary @'\(body.path)'"))
    #expect(!result.standardOutput.contains("pw-in-a-file-9"))
    let missing = try await baas.run(
      [
        "ncmb", "sign", "POST", "/2013-09-01/login", "--curl", "--data",
        "@\(baas.home.path)/none.json",
      ], environment: keys)
    #expect(missing.status == 2)
    #expect(missing.standardError.contains("none.json"))
  }

  @Test("record: a global --backend that contradicts record --backend is a usage error")
  func recordConflictingBackend() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(
      [
        "--backend", "ncmb", "record", "--backend", "firebase", "--emulator", "--out",
        baas.home.path,
      ],
      in: repositoryRoot)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(result.standardError.contains("--backend"))
  }

  @Test("cassette lint takes one file too")
  func lintOneFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let directory = repositoryRoot.appendingPathComponent("Recordings/firebase")
    let name = try #require(
      try FileManager.default.contentsOfDirectory(atPath: directory.path)
        .filter { $0.hasSuffix(".har") }.sorted().first)
    let result = try await baas.run(
      ["cassette", "lint", directory.appendingPathComponent(name).path])
    #expect(result.status == 0, "\(result.allOutput)")
    #expect(result.standardOutput.contains("1 cassette checked, 0 findings"))
    let broken = baas.home.appendingPathComponent("broken.har")
    try Data("not json".utf8).write(to: broken)
    let bad = try await baas.run(["cassette", "lint", broken.path])
    #expect(bad.status == 1)
    #expect(bad.standardOutput.contains("broken.har"))
  }
}
