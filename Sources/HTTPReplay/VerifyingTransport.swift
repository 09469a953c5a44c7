import BackendHTTP
import Foundation
import UserBackendKit

/// One difference between a live response and the recorded one (verify mode).
public struct ShapeDrift: Sendable, Hashable, CustomStringConvertible {
  /// `POST host/path` of the request.
  public var request: String
  /// The JSON path (`body.users[0].email`), `status`, or `interaction` when nothing was
  /// recorded for the request.
  public var path: String
  /// The recorded shape (`string`, `number`, `bool`, `null`, `object`, `array`, a status
  /// code), or `nil` when absent.
  public var recorded: String?
  /// The live shape, or `nil` when absent.
  public var live: String?

  /// A drift record.
  public init(request: String, path: String, recorded: String?, live: String?) {
    self.request = request
    self.path = path
    self.recorded = recorded
    self.live = live
  }

  /// `POST host/path body.expiresIn: recorded string, live number`.
  public var description: String {
    "\(request) \(path): recorded \(recorded ?? "(absent)"), live \(live ?? "(absent)")"
  }
}

/// Sends requests live and compares each response's shape (status, JSON keys and value
/// types; arrays by their first element) with the recorded response for the same request
/// key, first in first out (verify mode). Values are never compared, so fresh tokens and
/// IDs are not drift; a changed type, a missing or new key, or a changed status is.
public final class VerifyingTransport: HTTPTransport {
  /// The live transport.
  public let live: any HTTPTransport
  /// The cassette compared against.
  public let cassette: Cassette
  private let redactor: Redactor
  private let state: LockedValue<(queues: [String: [Int]], drift: [ShapeDrift])>
  private let recorded: [Interaction]

  /// Verifies live traffic against `cassette`.
  /// - Throws: ``CassetteError/malformed(field:reason:)`` for undecodable entries.
  public init(live: any HTTPTransport, cassette: Cassette) throws {
    self.live = live
    self.cassette = cassette
    redactor = Redactor(rules: cassette.rules)
    recorded = try cassette.interactions()
    var queues: [String: [Int]] = [:]
    let storedRedactor = Redactor(rules: cassette.rules)
    for (index, interaction) in recorded.enumerated() {
      let shape = RequestShape(
        storedRedactor.redact(interaction.request), matchHeaders: cassette.rules.matchHeaders)
      queues[shape.key, default: []].append(index)
    }
    state = LockedValue((queues, []))
  }

  /// Sends `request` live, records any shape drift, and returns the live response.
  /// - Throws: whatever the live transport throws.
  public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
    let shape = RequestShape(redactor.redact(request), matchHeaders: cassette.rules.matchHeaders)
    let response = try await live.send(request)
    let index: Int? = state.withLock { state in
      guard var queue = state.queues[shape.key], !queue.isEmpty else { return nil }
      let first = queue.removeFirst()
      state.queues[shape.key] = queue
      return first
    }
    var drift: [ShapeDrift] = []
    if let index {
      let old = recorded[index].response
      if old.status != response.status {
        drift.append(
          ShapeDrift(
            request: shape.summary, path: "status", recorded: String(old.status),
            live: String(response.status)))
      }
      let oldShape = Self.shape(of: old.body)
      let newShape = Self.shape(of: response.body)
      for path in Set(oldShape.keys).union(newShape.keys).sorted()
      where oldShape[path] != newShape[path] {
        drift.append(
          ShapeDrift(
            request: shape.summary, path: path, recorded: oldShape[path], live: newShape[path]))
      }
    } else {
      drift.append(
        ShapeDrift(request: shape.summary, path: "interaction", recorded: nil, live: "request"))
    }
    if !drift.isEmpty { state.withLock { $0.drift += drift } }
    return response
  }

  /// The drift found so far, in arrival order.
  public var drift: [ShapeDrift] { state.withLock { $0.drift } }

  /// Throws when any drift was found.
  /// - Throws: ``ReplayError/drift(_:)``.
  public func assertNoDrift() throws {
    let found = drift
    if !found.isEmpty { throw ReplayError.drift(found) }
  }

  /// JSON path -> type name of `body` (`body` -> `text` for a non-JSON body).
  static func shape(of body: Data) -> [String: String] {
    guard !body.isEmpty else { return [:] }
    guard let object = BodyCoding.jsonObject(body, mediaType: "json") else {
      return ["body": "text"]
    }
    var result: [String: String] = [:]
    collect(object, path: "body", into: &result)
    return result
  }

  private static func collect(_ value: Any, path: String, into result: inout [String: String]) {
    switch value {
    case let object as [String: Any]:
      result[path] = "object"
      for (key, child) in object { collect(child, path: path + "." + key, into: &result) }
    case let array as [Any]:
      result[path] = "array"
      if let first = array.first { collect(first, path: path + "[]", into: &result) }
    case is String: result[path] = "string"
    case is NSNull: result[path] = "null"
    case _ where isJSONBool(value): result[path] = "bool"
    case is NSNumber: result[path] = "number"
    default: result[path] = "unknown"
    }
  }
}
