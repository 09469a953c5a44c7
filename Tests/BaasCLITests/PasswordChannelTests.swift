import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The three password channels (`BAAS_PASSWORD`, `--password-stdin`, the prompt) agree:
/// each removes exactly one trailing line end ("\r\n", "\n" or "\r") and nothing else, so
/// an account created through one is entered through any other; a new password that still
/// holds a control character is refused, naming `password`, never echoing it.
@Suite("baas: the password channels agree", .timeLimit(.minutes(2)))
struct PasswordChannelTests {
  /// Runs `baas arguments` on a new terminal, types `typed` after the prompt, and returns
  /// the exit status and everything shown. With `carriageReturnIsNewline` off (`-ICRNL`),
  /// Enter arrives as "\r" and the line needs a "\n" of its own.
  func onTerminal(
    _ baas: Baas, _ arguments: [String], typed: String, carriageReturnIsNewline: Bool = true
  ) async throws -> (status: Int32, shown: String) {
    let executable = try #require(Baas.executable)
    var master: Int32 = -1
    var terminal: Int32 = -1
    try #require(openpty(&master, &terminal, nil, nil, nil) == 0)
    defer { close(master) }
    if !carriageReturnIsNewline {
      var settings = termios()
      try #require(tcgetattr(terminal, &settings) == 0)
      settings.c_iflag &= ~tcflag_t(ICRNL)
      try #require(tcsetattr(terminal, TCSANOW, &settings) == 0)
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.environment = Baas.sanitizerOptions.merging([
      "BAAS_HOME": baas.home.path, "HOME": baas.home.path, "LANG": "C.UTF-8",
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
    _ = typed.withCString { write(master, $0, strlen($0)) }
    let rest = await readTerminalOffPool(master, seconds: 20)
    await exit.wait()
    return (process.terminationStatus, prompt + rest)
  }

  @Test("a password from a CRLF env file signs up, then signs in through every channel")
  func crlfEnvironmentFile() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password + "\r"])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    _ = try await baas.run(["signout"])
    let piped = try await baas.run(
      ["signin", "--email", account.email, "--password-stdin"], input: account.password + "\n")
    #expect(piped.status == 0, "\(piped.allOutput)")
    _ = try await baas.run(["signout"])
    let plain = try await baas.run(
      ["signin", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    #expect(plain.status == 0, "\(plain.allOutput)")
    _ = try await baas.run(["signout"])
    let prompted = try await onTerminal(
      baas, ["signin", "--email", account.email], typed: account.password + "\n")
    #expect(prompted.status == 0, "\(prompted.shown)")
    #expect(!prompted.shown.contains(account.password))
  }

  @Test(
    "BAAS_PASSWORD loses exactly one trailing line end, as standard input does",
    arguments: ["\r", "\n", "\r\n"])
  func environmentLineEnd(_ end: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email, "--password-stdin"], input: account.password + end)
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    _ = try await baas.run(["signout"])
    let signIn = try await baas.run(
      ["signin", "--email", account.email],
      environment: ["BAAS_PASSWORD": account.password + end])
    #expect(signIn.status == 0, "\(signIn.allOutput)")
  }

  @Test("the prompt loses a trailing CR too (a terminal that does not map CR to NL)")
  func promptCarriageReturn() async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password])
    try #require(signUp.status == 0, "\(signUp.allOutput)")
    _ = try await baas.run(["signout"])
    let prompted = try await onTerminal(
      baas, ["signin", "--email", account.email], typed: account.password + "\r\n",
      carriageReturnIsNewline: false)
    #expect(prompted.status == 0, "\(prompted.shown)")
  }

  /// A new password that still holds a control or format character after the one line
  /// end is removed: refused by every command that sets one, on every channel.
  static let badPasswords = [
    "pw-horse-99\r\r", "pw-horse-99\u{1B}[2J", "\tpw-horse-99", "pw-horse-99\u{200B}",
    "pw-horse\n-99",
  ]

  @Test(
    "a new password with a control character is refused, naming password", arguments: badPasswords)
  func newPasswordRefused(_ password: String) async throws {
    let baas = try Baas()
    defer { baas.cleanUp() }
    let account = uniqueAccount()
    let signUp = try await baas.run(
      ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": password])
    #expect(signUp.status == 1, "\(signUp.allOutput)")
    #expect(signUp.standardError.contains("password"))
    #expect(!signUp.allOutput.contains(password))
    if !password.contains("\n") {
      let piped = try await baas.run(
        ["signup", "--email", account.email, "--password-stdin"], input: password + "\n")
      #expect(piped.status == 1, "\(piped.allOutput)")
      #expect(piped.standardError.contains("password"))
    }
    try #require(
      try await baas.run(
        ["signup", "--email", account.email], environment: ["BAAS_PASSWORD": account.password]
      ).status == 0)
    let change = try await baas.run(
      ["account", "password"], environment: ["BAAS_PASSWORD": password])
    #expect(change.status == 1, "\(change.allOutput)")
    #expect(change.standardError.contains("password"))
    let reset = try await baas.run(
      ["account", "reset-password", "--code", "reset-code-1"],
      environment: ["BAAS_PASSWORD": password])
    #expect(reset.status == 1, "\(reset.allOutput)")
    #expect(reset.standardError.contains("password"), "\(reset.allOutput)")
    try #require(try await baas.run(["signin", "--anonymous"]).status == 0)
    let link = try await baas.run(
      ["account", "link", "--email", "guest-" + account.email],
      environment: ["BAAS_PASSWORD": password])
    #expect(link.status == 1, "\(link.allOutput)")
    #expect(link.standardError.contains("password"))
    for output in [signUp, change, reset, link].map(\.allOutput) {
      #expect(!output.contains(password))
    }
  }
}
