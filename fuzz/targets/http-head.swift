// libFuzzer target: the emulator's HTTP/1.1 request head parser and chunked body decoder
// (Sources/BackendEmulator/Server), compiled into this binary by scripts/fuzz.
//
// Input: bytes as a client would send them. Invariants (a violation traps, which libFuzzer
// records as a crash):
// - parsing never traps; a parsed head has a token method, a visible-ASCII target,
//   HTTP/1.0 or 1.1, and no bare LF in the bytes it accepted;
// - a chunked body decodes to the same result (body, leftover bytes, or error status)
//   whether the bytes arrive at once or in pieces of any size.
import BackendHTTP

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
  guard let first = bytes.first else { return 0 }
  let input = Array(bytes.dropFirst())
  let end = headEnd(input) ?? input.count
  let headBytes = input[0..<end]
  let head: HTTPRequestHead
  do {
    head = try HTTPRequestHead.parse(headBytes)
  } catch {
    precondition([400, 501, 505].contains(error.status), "unexpected status \(error.status)")
    return 0
  }
  precondition(!head.method.isEmpty && head.method.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
  precondition(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F })
  precondition(head.minorVersion == 0 || head.minorVersion == 1)
  for (index, byte) in zip(headBytes.indices, headBytes) where byte == 0x0A {
    precondition(index > headBytes.startIndex && headBytes[index - 1] == 0x0D, "bare LF accepted")
  }
  _ = head.wantsKeepAlive
  _ = head.expectsContinue
  if case .contentLength(let length) = head.framing { precondition(length > 0) }
  guard head.framing == .chunked, end + 4 <= input.count else { return 0 }
  let body = Array(input[(end + 4)...])
  let whole = decodeChunked(body, pieces: [body.count])
  // Piece sizes from the first byte: 1...16, repeating.
  let pieceSize = Int(first % 16) + 1
  let split = decodeChunked(
    body, pieces: Array(repeating: pieceSize, count: body.count / pieceSize + 1))
  precondition(whole == split, "chunked decoding depends on how the bytes arrive")
  return 0
}

enum ChunkedOutcome: Equatable {
  case body([UInt8], leftover: [UInt8])
  case needMore
  case failed(Int)
}

/// Feeds `bytes` in pieces of the given sizes, as a connection would.
func decodeChunked(_ bytes: [UInt8], pieces: [Int]) -> ChunkedOutcome {
  var decoder = ChunkedBodyDecoder(maxBodyBytes: 1 << 16)
  var buffer: [UInt8] = []
  var offset = 0
  for piece in pieces where offset < bytes.count {
    let next = min(bytes.count, offset + piece)
    buffer.append(contentsOf: bytes[offset..<next])
    offset = next
    do {
      if let body = try decoder.decode(&buffer) {
        precondition(body.count <= 1 << 16)
        // What is left is what was not consumed: the rest of the input.
        return .body(body, leftover: buffer + bytes[offset...])
      }
    } catch {
      precondition([400, 413, 431].contains(error.status))
      return .failed(error.status)
    }
  }
  return .needMore
}

func headEnd(_ bytes: [UInt8]) -> Int? {
  guard bytes.count >= 4 else { return nil }
  for index in 0...(bytes.count - 4)
  where bytes[index] == 0x0D && bytes[index + 1] == 0x0A && bytes[index + 2] == 0x0D
    && bytes[index + 3] == 0x0A
  {
    return index
  }
  return nil
}
