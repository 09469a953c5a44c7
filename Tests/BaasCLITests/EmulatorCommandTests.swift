import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `baas emulator --port 0` child process: its banner, port and NCMB keys.
struct RunningEmulator {
  let process: Process
  let banner: String
  let port: Int
  let applicationKey: String
  let clientKey: String
  let exit: ProcessExit
  let standardError: Pipe

  /// Starts the emulator on a free port and waits (at most `timeout` seconds) for its
  /// banner.
  static func start(
    in home: URL, host: String = "127.0.0.1", arguments: [String] = [],
    timeout: TimeInterval = 60
  ) async throws -> RunningEmulator {
    let executable = try #require(Baas.executable, "the baas executable was not found")
    let process = Process()
    process.executableURL = executable
    process.arguments = ["emulator", "--host", host, "--port", "0"] + arguments
    process.environment = Baas.sanitizerOptions.merging([
      "BAAS_HOME": home.path, "HOME": home.path, "PATH": "/usr/bin:/bin",
    ]) { _, set in set }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    let exit = ProcessExit(process)
    try process.run()
    let pid = process.processIdentifier
    let watchdog = Task.detached {
      try await Task.sleep(for: .seconds(timeout))
      kill(pid, SIGKILL)
    }
    let reader = output.fileHandleForReading
    let banner = await offPool { () -> String in
      var text = ""
      while !text.contains("press Ctrl-C") {
        let data = reader.availableData
        if data.isEmpty { break }
        text += String(decoding: data, as: UTF8.self)
      }
      return text
    }
    watchdog.cancel()
    func value(after label: String) -> String? {
      banner.split(separator: "\n").first { $0.contains(label) }
        .flatMap { $0.split(separator: " ").last.map(String.init) }
    }
    let portText = value(after: "ready on")?.split(separator: ":").last.map(String.init)
    guard let port = portText.flatMap({ Int($0) }),
      let applicationKey = value(after: "application key:"),
      let clientKey = value(after: "client key:")
    else {
      kill(pid, SIGKILL)
      Issue.record("no emulator banner: \(banner)")
      throw CancellationError()
    }
    return RunningEmulator(
      process: process, banner: banner, port: port, applicationKey: applicationKey,
      clientKey: clientKey, exit: exit, standardError: error)
  }

  /// Sends `signal` and waits (at most `timeout` seconds) for the exit; a process that does
  /// not stop is killed and the test fails.
  func stop(signal number: Int32 = SIGTERM, timeout: TimeInterval = 20) async -> (
    status: Int32, standardError: String
  ) {
    kill(process.processIdentifier, number)
    let stopped = await exit.wait(timeout: timeout, killing: process.processIdentifier)
    #expect(stopped, "the emulator did not stop within \(timeout) s")
    let reader = standardError.fileHandleForReading
    let text = String(decoding: await offPool { reader.readDataToEndOfFile() }, as: UTF8.self)
    return (process.terminationStatus, text)
  }
}

@Suite("baas against baas emulator (firebase and ncmb), across processes", .timeLimit(.minutes(10)))
struct EmulatorCommandTests {
  @Test("signup, whoami, token, signout, whoami, signin", arguments: ["firebase", "ncmb"])
  func accountSequence(backend: String) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    baas.environment = [
      "BAAS_BACKEND": backend,
      "FIREBASE_API_KEY": "test-api-key", "FIREBASE_PROJECT_ID": "demo-project",
      "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
      "NCMB_BASE_URL": "http://127.0.0.1:\(emulator.port)",
      "NCMB_APPLICATION_KEY": emulator.applicationKey, "NCMB_CLIENT_KEY": emulator.clientKey,
    ]
    // The banner's NCMB line is the value for NCMB_BASE_URL (the origin, not the API path
    // under it, with which every request would miss).
    let ncmbLine = emulator.banner.split(separator: "\n").first { $0.contains("NCMB base URL:") }
    #expect(
      ncmbLine?.split(separator: " ").dropFirst(3).first.map(String.init)
        == "http://127.0.0.1:\(emulator.port)", "\(emulator.banner)")
    #expect(emulator.banner.contains("export NCMB_BASE_URL=http://127.0.0.1:\(emulator.port) "))
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]

    let signUp = try await baas.run(["signup", "--email", account.email], environment: password)
    #expect(signUp.status == 0, "\(signUp.allOutput)")
    let whoami = try await baas.run(["whoami", "--json"])
    #expect(whoami.status == 0, "\(whoami.allOutput)")
    #expect(whoami.standardOutput.contains(account.email))
    let token = try await baas.run(["token"])
    #expect(token.status == 0)
    #expect(token.standardOutput.split(separator: "\n").count == 1)
    let refreshed = try await baas.run(["token", "--refresh"])
    if backend == "ncmb" {
      // NCMB has no tokenRefresh capability: no silent "refresh" that returns the same token.
      #expect(refreshed.status == 1, "\(refreshed.allOutput)")
      #expect(refreshed.standardOutput.isEmpty)
      #expect(refreshed.standardError.contains("unsupported"))
      #expect(refreshed.standardError.contains("tokenRefresh"))
    } else {
      #expect(refreshed.status == 0, "\(refreshed.allOutput)")
    }

    let signOut = try await baas.run(["signout"])
    #expect(signOut.status == 0, "\(signOut.allOutput)")
    let signedOut = try await baas.run(["whoami", "--json"])
    #expect(signedOut.status == 1)
    let error = try #require(try signedOut.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "notSignedIn")

    let signIn = try await baas.run(["signin", "--email", account.email], environment: password)
    #expect(signIn.status == 0, "\(signIn.allOutput)")
    let again = try await baas.run(["whoami"])
    #expect(again.status == 0)
    #expect(again.standardOutput.contains(account.email))

    let wrong = try await baas.run(
      ["signin", "--email", account.email, "--json"],
      environment: ["BAAS_PASSWORD": "wrong-password"])
    #expect(wrong.status == 1)
    let wrongError = try #require(try wrong.json()["error"] as? [String: Any])
    #expect(wrongError["code"] as? String == "invalidCredentials")
    #expect(wrongError["backendCode"] is String, "the backend's own code is kept")

    let sessionFiles = try FileManager.default.contentsOfDirectory(atPath: baas.home.path)
      .filter { $0.hasPrefix(backend + "-") && $0.hasSuffix(".session.json") }
    #expect(sessionFiles.count == 1, "\(sessionFiles)")
    for file in sessionFiles {
      let attributes = try FileManager.default.attributesOfItem(
        atPath: baas.home.appendingPathComponent(file).path)
      let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
      #expect(mode & 0o777 == 0o600)
    }
    let outputs = [signUp, whoami, signIn, signOut, wrong].map(\.allOutput).joined()
    #expect(!outputs.contains(account.password))

    let result = await emulator.stop()
    stopped = true
    #expect(result.status == 0)
  }

  @Test("a wrong NCMB client key is misconfigured, with a hint and without the key")
  func wrongClientKey() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    var stopped = false
    defer {
      if !stopped { kill(emulator.process.processIdentifier, SIGKILL) }
    }
    let wrongKey = "wrong-client-key-\(UUID().uuidString)"
    let environment = [
      "BAAS_BACKEND": "ncmb", "NCMB_BASE_URL": "http://127.0.0.1:\(emulator.port)",
      "NCMB_APPLICATION_KEY": emulator.applicationKey, "NCMB_CLIENT_KEY": wrongKey,
      "BAAS_PASSWORD": "secret-pw-1",
    ]
    let human = try await baas.run(
      ["signup", "--username", "keytest"], environment: environment)
    #expect(human.status == 1)
    #expect(human.standardError.contains("misconfigured"))
    #expect(human.standardError.contains("E403002"))
    #expect(human.standardError.contains("hint: wrong client key?"))
    let json = try await baas.run(
      ["signup", "--username", "keytest", "--json"], environment: environment)
    let error = try #require(try json.json()["error"] as? [String: Any])
    #expect(error["code"] as? String == "misconfigured")
    #expect(error["backendCode"] as? String == "E403002")
    for output in [human.allOutput, json.allOutput] {
      #expect(!output.contains(wrongKey))
      #expect(!output.contains(emulator.applicationKey))
    }
    _ = await emulator.stop()
    stopped = true
  }

  @Test("the emulator stops cleanly on SIGINT and SIGTERM", arguments: [SIGINT, SIGTERM])
  func stopsOnSignal(signal number: Int32) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let emulator = try await RunningEmulator.start(in: baas.home)
    #expect(emulator.banner.contains("identitytoolkit.googleapis.com/v1"))
    #expect(emulator.banner.contains("/2013-09-01"))
    #expect(emulator.banner.contains("demo-project"))
    let result = await emulator.stop(signal: number)
    #expect(result.status == 0)
    #expect(result.standardError.contains("stopped"))
  }

  @Test("a bad --port is a usage error")
  func badPort() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let result = try await baas.run(["emulator", "--port", "99999"])
    #expect(result.status == 2)
  }
}

@Suite("baas emulator --data keeps users in an owner-only file", .timeLimit(.minutes(10)))
struct EmulatorDataTests {
  @Test(
    "users survive a restart on the same --data file, also after kill -9; the file is 0600",
    arguments: [SIGTERM, SIGKILL])
  func dataFile(stopSignal: Int32) async throws {
    var baas = try Baas()
    defer { baas.cleanUp() }
    let data = baas.home.appendingPathComponent("emulator.sqlite")
    let account = uniqueAccount()
    let password = ["BAAS_PASSWORD": account.password]
    for round in 0..<2 {
      let emulator = try await RunningEmulator.start(
        in: baas.home, arguments: ["--data", data.path])
      baas.environment = [
        "BAAS_BACKEND": "firebase", "FIREBASE_API_KEY": "test-api-key",
        "FIREBASE_AUTH_EMULATOR_HOST": "127.0.0.1:\(emulator.port)",
      ]
      let command = round == 0 ? "signup" : "signin"
      let result = try await baas.run([command, "--email", account.email], environment: password)
      let stop = await emulator.stop(signal: round == 0 ? stopSignal : SIGTERM)
      #expect(result.status == 0, "\(command): \(result.allOutput)")
      if round == 1 || stopSignal == SIGTERM { #expect(stop.status == 0) }
    }
    let attributes = try FileManager.default.attributesOfItem(atPath: data.path)
    let mode = try #require(attributes[.posixPermissions] as? NSNumber).intValue
    #expect(mode & 0o777 == 0o600)
  }
}
