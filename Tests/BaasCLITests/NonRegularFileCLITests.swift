import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Files named to `baas` (the config file, the session file, a cassette) that are not
/// regular files are refused at once with a reason that says so; a FIFO never blocks.
@Suite("baas: files that are not regular files", .timeLimit(.minutes(2)))
struct NonRegularFileCLITests {
  @Test("--config naming a FIFO is a configuration error, not a hang")
  func configFIFO() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let fifo = baas.home.appendingPathComponent("config.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let result = try await baas.run(["--config", fifo.path, "whoami"], timeout: 20)
    #expect(result.status != 0)
    #expect(result.standardError.contains("is not a regular file"), "\(result.allOutput)")
  }

  @Test("a session file that is a FIFO or a link to /dev/zero says so")
  func sessionFile() async throws {
    for kind in ["fifo", "zero"] {
      let baas = try Baas()
      defer { baas.cleanUp() }
      let session = baas.home.appendingPathComponent("fake.session.json")
      if kind == "fifo" {
        #expect(mkfifo(session.path, 0o600) == 0)
      } else {
        try FileManager.default.createSymbolicLink(
          atPath: session.path, withDestinationPath: "/dev/zero")
      }
      let result = try await baas.run(["whoami"], timeout: 20)
      #expect(result.status != 0, "\(kind)")
      #expect(
        result.standardError.contains("is not a regular file"), "\(kind): \(result.allOutput)")
      #expect(!result.allOutput.contains("ermission denied"), "\(kind): \(result.allOutput)")
    }
  }

  @Test("cassette lint on a FIFO says it is not a regular file")
  func cassetteFIFO() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let fifo = baas.home.appendingPathComponent("cassette.json")
    #expect(mkfifo(fifo.path, 0o600) == 0)
    let result = try await baas.run(["cassette", "lint", fifo.path], timeout: 20)
    #expect(result.status != 0)
    #expect(result.allOutput.contains("is not a regular file"), "\(result.allOutput)")
  }

  @Test("a config file home with a NUL is misconfigured naming home, and nothing is written")
  func homeWithNUL() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let config = baas.home.appendingPathComponent("config.json")
    let secret = baas.home.appendingPathComponent("SECRETHOME")
    try Data(#"{"home":"\#(secret.path)\u0000x"}"#.utf8).write(to: config)
    let result = try await baas.run(
      ["--config", config.path, "signup", "--email", "a@example.com"],
      environment: ["BAAS_HOME": "", "BAAS_PASSWORD": "secret1"], timeout: 20)
    #expect(result.status != 0)
    #expect(result.standardError.contains("home"), "\(result.allOutput)")
    #expect(result.standardError.contains("U+0000"), "\(result.allOutput)")
    #expect(!FileManager.default.fileExists(atPath: secret.path))
  }

  @Test(
    "a path option with a control character is a usage error naming the option",
    arguments: [
      (["cassette", "lint", "/tmp/a\u{1}b.json"], "the cassette"),
      (["emulator", "--port", "0", "--data", "/tmp/a\nb.sqlite"], "--data"),
    ])
  func pathOptions(arguments: [String], option: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(arguments, timeout: 10)
    #expect(result.status == 2, "\(result.allOutput)")
    #expect(
      result.standardError.contains("\(option) contains the control character"),
      "\(result.allOutput)")
  }
}
