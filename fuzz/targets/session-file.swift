// libFuzzer target: the session-file decoder (UserBackendKit FileSessionStore), the
// persisted auth state `baas` and apps read from BAAS_HOME.
//
// Input: any bytes, the content of a session file.
// Invariants: decoding never traps; a decoded state encodes (as `save` writes it) to bytes
// that decode to an equal state; `FileSessionStore.load()` over the same bytes gives the
// decoded state, or signed out with one diagnostic that holds no string value of the
// input (tokens, names) of 8 characters or more.
import Dispatch
import Foundation

@testable import UserBackendKit

/// One scratch directory for the whole run.
let directory: URL = {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "fuzz-session-file-\(getpid())")
  try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  // Removed when libFuzzer exits normally (at the end of -max_total_time).
  atexit { try? FileManager.default.removeItem(at: directory) }
  return url
}()

final class Lines: @unchecked Sendable {
  private let lock = NSLock()
  private var lines: [String] = []
  func append(_ line: String) {
    lock.lock()
    defer { lock.unlock() }
    lines.append(line)
  }
  func take() -> [String] {
    lock.lock()
    defer { lock.unlock() }
    let taken = lines
    lines = []
    return taken
  }
}

final class LoadOutcome: @unchecked Sendable {
  var state: PersistedAuthState?
  var thrown: (any Error)?
}

let diagnostics = Lines()
let store = FileSessionStore(
  directory: directory, namespace: "fuzz", diagnostics: { diagnostics.append($0) })

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? Data() : Data(UnsafeBufferPointer(start: data, count: size))
  let decoded = try? JSONDecoder.sessionStore.decode(PersistedAuthState.self, from: bytes)
  if let decoded {
    guard let encoded = try? JSONEncoder.sessionStore.encode(decoded) else {
      preconditionFailure("a decoded state does not encode")
    }
    guard let again = try? JSONDecoder.sessionStore.decode(PersistedAuthState.self, from: encoded)
    else { preconditionFailure("a re-encoded state does not decode") }
    precondition(again == decoded, "a re-encoded state differs")
  }

  // The store's own path: the file on disk, read by `load()` (async; this fuzzer thread is
  // not a cooperative-pool thread, so waiting on it here is fine).
  guard (try? bytes.write(to: store.fileURL)) != nil else { return 0 }
  let result = LoadOutcome()
  let done = DispatchSemaphore(value: 0)
  Task {
    do { result.state = try await store.load() } catch { result.thrown = error }
    done.signal()
  }
  done.wait()
  let lines = diagnostics.take()
  precondition(result.thrown == nil, "load() threw for a readable file")
  if let decoded {
    precondition(result.state == decoded, "load() differs from the decoder")
    precondition(lines.isEmpty, "a diagnostic for a readable state")
  } else {
    precondition(result.state == .empty, "an unreadable file is not signed out")
    precondition(lines.count == 1, "an unreadable file gives one diagnostic")
    for value in stringValues(bytes) where value.count >= 8 {
      precondition(
        !lines[0].contains(value) || store.fileURL.path.contains(value),
        "a diagnostic holds a value from the file")
    }
  }
  return 0
}

/// Every string (values and keys) in `bytes` when they parse as JSON, else nothing.
func stringValues(_ bytes: Data) -> [String] {
  guard let object = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed])
  else { return [] }
  var found: [String] = []
  func walk(_ item: Any) {
    if let text = item as? String {
      found.append(text)
    } else if let array = item as? [Any] {
      array.forEach(walk)
    } else if let object = item as? [String: Any] {
      for (key, value) in object {
        found.append(key)
        walk(value)
      }
    }
  }
  walk(object)
  return found
}
