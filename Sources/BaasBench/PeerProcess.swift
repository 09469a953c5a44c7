import Foundation
import UserBackendKit

/// A long-lived child process spoken to in lines: ``send(_:)`` writes one line to its
/// standard input, ``nextLine()`` awaits the next line of its standard output. The pipe is
/// read by Foundation's `readabilityHandler` (off the cooperative pool), so no task blocks
/// on a read. Standard error goes to /dev/null (a child's traceback could quote secrets).
/// Not `Sendable`: one task owns it.
final class PeerProcess {
  private let process: Process
  private let input: FileHandle
  private let output: FileHandle
  private let lines = LineBuffer()

  private struct LineState {
    var buffer: [UInt8] = []
    var lines: [String] = []
    var waiter: CheckedContinuation<String?, Never>?
    var closed = false
  }

  private final class LineBuffer: Sendable {
    let state = LockedValue<LineState>(LineState())
  }

  /// Starts `executable` with `arguments`.
  /// - Throws: ``BenchFailure`` when it cannot be started.
  init(executable: String, arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = FileHandle.nullDevice
    self.process = process
    input = stdin.fileHandleForWriting
    output = stdout.fileHandleForReading
    output.readabilityHandler = { [lines] handle in
      let data = handle.availableData
      let ready = lines.state.withLock { state -> (CheckedContinuation<String?, Never>, String?)? in
        if data.isEmpty { state.closed = true } else { state.buffer += data }
        while let newline = state.buffer.firstIndex(of: 10) {
          state.lines.append(String(decoding: state.buffer[..<newline], as: UTF8.self))
          state.buffer.removeSubrange(...newline)
        }
        guard let waiter = state.waiter else { return nil }
        if !state.lines.isEmpty {
          state.waiter = nil
          return (waiter, state.lines.removeFirst())
        }
        if state.closed {
          state.waiter = nil
          return (waiter, nil)
        }
        return nil
      }
      if data.isEmpty { handle.readabilityHandler = nil }
      if let (waiter, line) = ready { waiter.resume(returning: line) }
    }
    do {
      try process.run()
    } catch {
      output.readabilityHandler = nil
      throw BenchFailure("cannot start \(executable): \(error.localizedDescription)")
    }
  }

  /// Writes `line` and a newline to the child's standard input.
  /// - Throws: ``BenchFailure`` when the child is gone.
  func send(_ line: String) throws {
    do {
      try input.write(contentsOf: Data((line + "\n").utf8))
    } catch {
      throw BenchFailure("the Python driver stopped reading")
    }
  }

  /// The next line the child wrote, or `nil` once its output is closed.
  func nextLine() async -> String? {
    await withCheckedContinuation { continuation in
      let ready = lines.state.withLock { state -> (line: String?, now: Bool) in
        if !state.lines.isEmpty { return (state.lines.removeFirst(), true) }
        if state.closed { return (nil, true) }
        state.waiter = continuation
        return (nil, false)
      }
      if ready.now { continuation.resume(returning: ready.line) }
    }
  }

  /// Closes the child's input (the driver exits on end of input) and terminates it if it
  /// is still running; does not wait.
  func stop() {
    try? input.close()
    if process.isRunning { process.terminate() }
  }
}
