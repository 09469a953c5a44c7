import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the password comes from. It is never an argument value (arguments show up in
/// `ps` and shell history):
/// 1. `--password-stdin`: the first line of standard input (read without echo when
///    standard input is a terminal), at most ``maximumLineBytes`` bytes: a longer line
///    (`< /dev/zero`) is refused, not read on;
/// 2. the `BAAS_PASSWORD` environment variable;
/// 3. a prompt without echo when standard input is a terminal.
///
/// One rule for all three (``removingLineEnd(_:)``): exactly one trailing line end,
/// `"\r\n"`, `"\n"` or `"\r"`, is removed, and nothing else is trimmed. So a password
/// from an env file with CRLF line ends (`docker --env-file`, systemd `EnvironmentFile`,
/// a `.env` saved on Windows) is the password typed at the prompt or piped, and an
/// account created through one channel is entered through any other.
enum PasswordInput {
  /// The longest first line read from standard input, in bytes: room for a password of
  /// `CredentialValidation.maximumPasswordLength` characters of up to 4 UTF-8 bytes each,
  /// plus a CR LF.
  static let maximumLineBytes = 4 * 4096 + 2

  /// Reads the password; `prompt` is shown on a terminal.
  /// - Throws: ``UsageError`` when no source is available, standard input is empty, or its
  ///   first line is longer than ``maximumLineBytes`` bytes or not UTF-8, or
  ///   `BAAS_PASSWORD` is not UTF-8.
  static func read(
    fromStandardInput: Bool, environment: [String: String], command: String,
    prompt: String = "Password: "
  ) throws -> String {
    if fromStandardInput {
      // On a terminal, read the line without echo rather than show what is typed.
      let input =
        Console.standardInputIsTerminal
        ? promptWithoutEcho(prompt) : boundedLine()
      let line: String
      switch input {
      case .line(let text): line = text
      case .empty: throw UsageError("--password-stdin: standard input is empty", command: command)
      case .tooLong:
        throw UsageError(
          "--password-stdin: the first line of standard input is longer than "
            + "\(maximumLineBytes) bytes", command: command)
      case .notText:
        throw UsageError(
          "--password-stdin: the first line of standard input is not UTF-8 text",
          command: command)
      }
      return removingLineEnd(line + "\n")
    }
    if let password = try RawInput.variable("BAAS_PASSWORD", in: environment, command: command) {
      return removingLineEnd(password)
    }
    if Console.standardInputIsTerminal, case .line(let password) = promptWithoutEcho(prompt) {
      return removingLineEnd(password + "\n")
    }
    throw UsageError(
      "no password: set BAAS_PASSWORD, pipe it with --password-stdin, or run on a terminal "
        + "to be prompted", command: command)
  }

  /// `text` without one trailing line end: `"\r\n"`, `"\n"` or `"\r"` (compared as
  /// Unicode scalars: `"\r\n"` is one `Character`). A line read up to its `"\n"` is
  /// passed with that `"\n"`, so `"pw\r\n"` on standard input, at the prompt and in
  /// `BAAS_PASSWORD` is `"pw"` everywhere, and `"pw\r\r\n"` is `"pw\r"` everywhere.
  static func removingLineEnd(_ text: String) -> String {
    var scalars = Substring(text).unicodeScalars
    if scalars.last == "\n" {
      scalars.removeLast()
      if scalars.last == "\r" { scalars.removeLast() }
    } else if scalars.last == "\r" {
      scalars.removeLast()
    }
    return String(scalars)
  }

  /// Turns echo off, then prints `prompt` on standard error and reads one line from the
  /// terminal; the terminal settings are restored afterwards. Echo goes off before the
  /// prompt appears, so nothing typed after the prompt is ever shown, and nothing typed
  /// ahead is discarded (`TCSANOW`). SIGINT (Ctrl-C), SIGTERM and SIGHUP during the prompt
  /// restore the settings before the process dies of the signal (``TerminalRestorer``).
  private static func promptWithoutEcho(_ prompt: String) -> Line {
    var original = termios()
    let haveSettings = tcgetattr(STDIN_FILENO, &original) == 0
    if haveSettings {
      TerminalRestorer.install(original)
      var silent = original
      silent.c_lflag &= ~tcflag_t(ECHO)
      silent.c_lflag |= tcflag_t(ECHONL)
      _ = tcsetattr(STDIN_FILENO, TCSANOW, &silent)
    }
    defer {
      if haveSettings {
        var restore = original
        _ = tcsetattr(STDIN_FILENO, TCSANOW, &restore)
        TerminalRestorer.uninstall()
      }
    }
    FileHandle.standardError.write(Data(prompt.utf8))
    return boundedLine()
  }

  /// What ``boundedLine(from:limit:)`` read.
  enum Line: Equatable {
    /// The line without its `"\n"`.
    case line(String)
    /// End of input before any byte.
    case empty
    /// More than the limit before a `"\n"`; reading stopped there.
    case tooLong
    /// The bytes are not UTF-8.
    case notText
  }

  /// Reads one line from `descriptor` a byte at a time (nothing past the line is
  /// consumed), stopping after `limit` bytes without a newline.
  static func boundedLine(from descriptor: Int32 = STDIN_FILENO, limit: Int = maximumLineBytes)
    -> Line
  {
    var bytes: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      #if canImport(Glibc)
        let count = Glibc.read(descriptor, &byte, 1)
      #else
        let count = Darwin.read(descriptor, &byte, 1)
      #endif
      if count < 0, errno == EINTR { continue }
      if count <= 0 { break }
      if byte == UInt8(ascii: "\n") {
        return String(validating: bytes, as: UTF8.self).map(Line.line) ?? .notText
      }
      guard bytes.count < limit else { return .tooLong }
      bytes.append(byte)
    }
    if bytes.isEmpty { return .empty }
    return String(validating: bytes, as: UTF8.self).map(Line.line) ?? .notText
  }
}

/// Restores the terminal settings saved before a no-echo prompt when SIGINT, SIGTERM or
/// SIGHUP arrives during it, then lets the signal kill the process as it would have (the
/// default action, re-raised), so the shell sees the usual exit status.
///
/// The handler runs in signal context: it only calls async-signal-safe functions
/// (`tcsetattr`, `write`, `signal`, `raise`) on state written before it was installed.
enum TerminalRestorer {
  /// The signals that end a prompt.
  static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  /// The settings to restore, in memory of its own (allocated once, never freed). Written
  /// only while no handler is installed (before ``install(_:)`` installs one), read only by
  /// the handler. Not a `static var termios`: AddressSanitizer reported the assignment to
  /// such a global as a 60-byte write past it (scripts/sanitize address, the prompt tests).
  nonisolated(unsafe) private static let saved: UnsafeMutablePointer<termios> = {
    let pointer = UnsafeMutablePointer<termios>.allocate(capacity: 1)
    pointer.initialize(to: termios())
    return pointer
  }()

  /// Saves `settings` and installs the handler for ``signals``.
  static func install(_ settings: termios) {
    saved.pointee = settings
    for number in signals {
      _ = signal(number) { received in
        _ = tcsetattr(STDIN_FILENO, TCSANOW, TerminalRestorer.saved)
        // The line the user was typing ends here; the shell prompt starts on a new line.
        _ = write(STDERR_FILENO, "\n", 1)
        _ = signal(received, SIG_DFL)
        _ = raise(received)
      }
    }
  }

  /// Puts back the default action for ``signals``.
  static func uninstall() {
    for number in signals { _ = signal(number, SIG_DFL) }
  }
}
