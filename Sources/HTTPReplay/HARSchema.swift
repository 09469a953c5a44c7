import Foundation
import UserBackendKit

/// The structural rules of a cassette: HAR 1.2's required fields (docs/cassettes.md
/// §2) and the `_replay` block (§3), checked on parsed JSON, and what replay can honour
/// (``ReplayableFields``: statuses, methods, header fields).
enum HARSchema {
  struct Problem: Hashable {
    var path: String
    var message: String
  }

  private enum Kind {
    case string, number, array, object, isoDate
  }

  static func problems(in root: Any) -> [Problem] {
    var problems: [Problem] = []
    /// Header fields replay could not hand to a client (``ReplayableFields``).
    func headers(_ value: Any?, _ path: String) {
      for (index, item) in (value as? [Any] ?? []).enumerated() {
        guard let pair = item as? [String: Any], let name = pair["name"] as? String else {
          continue
        }
        if let problem = ReplayableFields.headerProblem(
          name: name, value: pair["value"] as? String ?? "")
        {
          problems.append(Problem(path: "\(path)[\(index)]", message: problem))
        }
      }
    }
    func check(_ object: [String: Any], _ path: String, _ fields: [(String, Kind)]) {
      for (name, kind) in fields {
        let fieldPath = path + "." + name
        guard let value = object[name] else {
          problems.append(Problem(path: fieldPath, message: "missing"))
          continue
        }
        let ok: Bool
        switch kind {
        case .string: ok = value is String
        case .number: ok = value is NSNumber && !isJSONBool(value)
        case .array: ok = value is [Any]
        case .object: ok = value is [String: Any]
        case .isoDate: ok = (value as? String).flatMap(ISO8601.date(from:)) != nil
        }
        if !ok { problems.append(Problem(path: fieldPath, message: "expected \(kind)")) }
      }
    }
    guard let top = root as? [String: Any], let log = top["log"] as? [String: Any] else {
      return [Problem(path: "log", message: "missing")]
    }
    check(log, "log", [("version", .string), ("creator", .object), ("entries", .array)])
    if let version = log["version"] as? String, version != "1.2" {
      problems.append(Problem(path: "log.version", message: "expected \"1.2\""))
    }
    if let creator = log["creator"] as? [String: Any] {
      check(creator, "log.creator", [("name", .string), ("version", .string)])
    }
    for (index, item) in (log["entries"] as? [Any] ?? []).enumerated() {
      let path = CassetteLocation.entry(index)
      guard let entry = item as? [String: Any] else {
        problems.append(Problem(path: path, message: "expected object"))
        continue
      }
      check(
        entry, path,
        [
          ("startedDateTime", .isoDate), ("time", .number), ("request", .object),
          ("response", .object), ("cache", .object), ("timings", .object),
        ])
      if let timings = entry["timings"] as? [String: Any] {
        check(
          timings, path + ".timings", [("send", .number), ("wait", .number), ("receive", .number)])
      }
      if let request = entry["request"] as? [String: Any] {
        check(
          request, path + ".request",
          [
            ("method", .string), ("url", .string), ("httpVersion", .string), ("cookies", .array),
            ("headers", .array), ("queryString", .array), ("headersSize", .number),
            ("bodySize", .number),
          ])
        if let postData = request["postData"] as? [String: Any] {
          check(postData, path + ".request.postData", [("mimeType", .string)])
        }
        if let method = request["method"] as? String,
          let problem = ReplayableFields.methodProblem(method)
        {
          problems.append(Problem(path: path + ".request.method", message: problem))
        }
        headers(request["headers"], path + ".request.headers")
      }
      if let response = entry["response"] as? [String: Any] {
        check(
          response, path + ".response",
          [
            ("status", .number), ("statusText", .string), ("httpVersion", .string),
            ("cookies", .array), ("headers", .array), ("content", .object),
            ("redirectURL", .string), ("headersSize", .number), ("bodySize", .number),
          ])
        if let content = response["content"] as? [String: Any] {
          check(content, path + ".response.content", [("size", .number), ("mimeType", .string)])
        }
        if let status = response["status"] as? NSNumber, !isJSONBool(status),
          let problem = ReplayableFields.statusProblem(
            Int(exactly: status.doubleValue) ?? Int.min)
        {
          problems.append(Problem(path: path + ".response.status", message: problem))
        }
        headers(response["headers"], path + ".response.headers")
      }
    }
    guard let replay = log["_replay"] as? [String: Any] else {
      problems.append(Problem(path: "log._replay", message: "missing"))
      return problems
    }
    check(
      replay, "log._replay",
      [
        ("format", .number), ("backend", .string), ("contract", .string), ("clock", .isoDate),
        ("variables", .object), ("rules", .object), ("provenance", .object),
      ])
    let seed = replay["seed"]
    if !((seed as? String).flatMap { DecimalText.wholeNumber($0, as: UInt64.self) } != nil
      || (seed is NSNumber && !isJSONBool(seed as Any)))
    {
      problems.append(Problem(path: "log._replay.seed", message: "expected a decimal UInt64"))
    }
    if let provenance = replay["provenance"] as? [String: Any] {
      check(provenance, "log._replay.provenance", [("kind", .string), ("recordedAt", .isoDate)])
      if let kind = provenance["kind"] as? String, Provenance.Kind(rawValue: kind) == nil {
        problems.append(
          Problem(
            path: "log._replay.provenance.kind", message: "expected live, emulator or documented"))
      }
    }
    return problems
  }
}
