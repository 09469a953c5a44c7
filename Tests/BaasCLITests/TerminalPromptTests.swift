import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads what is available on `descriptor` for up to `seconds`, stopping early once
/// `until` appears or the other side is closed.
func readTerminal(_ descriptor: Int32, seconds: Double, until marker: String? = nil) -> String {
  var collected = Data()
  let deadline = Date().addingTimeInterval(seconds)
  var buffer = [UInt8](repeating: 0, count: 1024)
  while Date() < deadline {
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 100) > 0 else { continue }
    let count = read(descriptor, &buffer, buffer.count)
    if count <= 0 { break }
    collected.append(contentsOf: buffer[0..<count])
    if let marker, String(decoding: collected, as: UTF8.self).contains(marker) { break }
  }
  return String(decoding: collected, as: UTF8.self)
}

/// ``readTerminal(_:seconds:until:)`` on a thread of its own (it polls and reads, blocking).
func readTerminalOffPool(_ descriptor: Int32, seconds: Double, until marker: String? = nil) async
  -> String
{
  await offPool { readTerminal(descriptor, seconds: seconds, until: marker) }
}

@Suite("baas prompts for the password on a terminal", .timeLimit(.minutes(10)))
struct TerminalPromptTests {
  @Test("on a terminal the password is read with echo off and never shown")
  func promptWithoutEcho() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let executable = try #require(Baas.executable)
    var master: Int32 = -1
    var terminal: Int32 = -1
    try #require(openpty(&master, &terminal, nil, nil, nil) == 0)
    defer { close(master) }

    let account = uniqueAccount()
    let process = Process()
    process.executableURL = executable
    process.arguments = ["signup", "--email", account.email]
    process.environment = Baas.sanitizerOptions.merging([
      "BAAS_HOME": baas.home.path, "HOME": baas.home.path,
    ]) { _, set in set }
    let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    let exit = ProcessExit(process)
    try process.run()
    try handle.close()
    let pid = process.processIdentifier
    let watchdog = Task.detached {
      try await Task.sleep(for: .seconds(30))
      kill(pid, SIGKILL)
    }
    defer { watchdog.cancel() }

    let prompt = await readTerminalOffPool(master, seconds: 20, until: "Password: ")
    #expect(prompt.contains("Password: "))
    let line = account.password + "\n"
    _ = line.withCString { write(master, $0, strlen($0)) }
    let rest = await readTerminalOffPool(master, seconds: 20, until: "Signed up")
    await exit.wait()
    #expect(process.terminationStatus == 0, "\(prompt)\(rest)")
    #expect(rest.contains("Signed up"))
    #expect(!(prompt + rest).contains(account.password), "the password was echoed")

    let whoami = try await baas.run(["whoami"])
    #expect(whoami.standardOutput.contains(account.email))
  }

  @Test(
    "a signal at the password prompt restores the terminal's echo before the process dies",
    arguments: [SIGINT, SIGTERM, SIGHUP])
  func signalAtPromptRestoresEcho(signalNumber: Int32) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let executable = try #require(Baas.executable)
    var master: Int32 = -1
    var terminal: Int32 = -1
    try #require(openpty(&master, &terminal, nil, nil, nil) == 0)
    defer { close(master) }
    // A second descriptor on the terminal side, kept open to read its settings afterwards.
    let probe = dup(terminal)
    try #require(probe >= 0)
    defer { close(probe) }
    var before = termios()
    try #require(tcgetattr(probe, &before) == 0)
    try #require(before.c_lflag & tcflag_t(ECHO) != 0, "the new terminal has echo off")

    let process = Process()
    process.executableURL = executable
    process.arguments = ["signin", "--email", uniqueAccount().email]
    process.environment = Baas.sanitizerOptions.merging([
      "BAAS_HOME": baas.home.path, "HOME": baas.home.path,
    ]) { _, set in set }
    let handle = FileHandle(fileDescriptor: terminal, closeOnDealloc: true)
    process.standardInput = handle
    process.standardOutput = handle
    process.standardError = handle
    let exit = ProcessExit(process)
    try process.run()
    try handle.close()
    let pid = process.processIdentifier
    let watchdog = Task.detached {
      try await Task.sleep(for: .seconds(30))
      kill(pid, SIGKILL)
    }
    defer { watchdog.cancel() }

    let prompt = await readTerminalOffPool(master, seconds: 20, until: "Password: ")
    try #require(prompt.contains("Password: "))
    var during = termios()
    try #require(tcgetattr(probe, &during) == 0)
    #expect(during.c_lflag & tcflag_t(ECHO) == 0, "echo is on at the prompt")

    kill(pid, signalNumber)
    _ = await readTerminalOffPool(master, seconds: 5)
    await exit.wait()
    #expect(process.terminationReason == .uncaughtSignal)
    #expect(process.terminationStatus == signalNumber)
    var after = termios()
    try #require(tcgetattr(probe, &after) == 0)
    #expect(after.c_lflag & tcflag_t(ECHO) != 0, "the terminal was left with echo off")
  }
}
