import Foundation

// HTTP Archive 1.2 value types (docs/cassettes.md §2; the HAR 1.2 spec). Decoding
// is lenient: unknown fields are ignored and missing optional-in-practice fields get HAR's
// "unknown" defaults, so browser and debugger exports load. Encoding always writes every
// field HAR 1.2 requires.

/// The `log` object of a HAR file.
public struct HARLog: Codable, Sendable, Hashable {
  /// The HAR version, `"1.2"`.
  public var version: String
  /// The tool that wrote the file.
  public var creator: HARCreator
  /// The interactions, in order.
  public var entries: [HAREntry]
  /// The replay block (`_replay`), present in cassettes, absent in plain HAR exports.
  public var replay: ReplayMetadata?

  /// A log.
  public init(
    version: String = "1.2", creator: HARCreator, entries: [HAREntry],
    replay: ReplayMetadata? = nil
  ) {
    self.version = version
    self.creator = creator
    self.entries = entries
    self.replay = replay
  }

  enum CodingKeys: String, CodingKey {
    case version, creator, entries
    case replay = "_replay"
  }

  /// Decodes leniently (missing `version`/`creator` get `"1.2"` and an unnamed creator).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    version = try c.decodeIfPresent(String.self, forKey: .version) ?? "1.2"
    creator = try c.decodeIfPresent(HARCreator.self, forKey: .creator) ?? HARCreator(name: "")
    entries = try c.decodeIfPresent([HAREntry].self, forKey: .entries) ?? []
    replay = try c.decodeIfPresent(ReplayMetadata.self, forKey: .replay)
  }
}

/// `log.creator`: the writing tool's name and version.
public struct HARCreator: Codable, Sendable, Hashable {
  /// The tool's name, e.g. `"UserBackendKit-HTTPReplay"`.
  public var name: String
  /// The tool's version.
  public var version: String
  /// A creator.
  public init(name: String, version: String = "1") {
    self.name = name
    self.version = version
  }
  /// Decodes leniently.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
    version = try c.decodeIfPresent(String.self, forKey: .version) ?? ""
  }
}

/// One interaction: `log.entries[]`.
public struct HAREntry: Codable, Sendable, Hashable {
  /// When the request started, ISO 8601 (`2026-01-01T00:00:00.000Z`).
  public var startedDateTime: String
  /// Total time in milliseconds (cassettes write 0 so re-recordings stay stable).
  public var time: Double
  /// The request.
  public var request: HARRequest
  /// The response.
  public var response: HARResponse
  /// Cache information; always written as `{}`.
  public var cache: HARCache
  /// Phase timings in milliseconds.
  public var timings: HARTimings
  /// The recording order (`_order`, 0-based), when known.
  public var order: Int?

  /// An entry.
  public init(
    startedDateTime: String, time: Double = 0, request: HARRequest, response: HARResponse,
    cache: HARCache = HARCache(), timings: HARTimings = HARTimings(), order: Int? = nil
  ) {
    self.startedDateTime = startedDateTime
    self.time = time
    self.request = request
    self.response = response
    self.cache = cache
    self.timings = timings
    self.order = order
  }

  enum CodingKeys: String, CodingKey {
    case startedDateTime, time, request, response, cache, timings
    case order = "_order"
  }

  /// Decodes leniently (`request` and `response` are required).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    startedDateTime = try c.decodeIfPresent(String.self, forKey: .startedDateTime) ?? ""
    time = try c.decodeIfPresent(Double.self, forKey: .time) ?? 0
    request = try c.decode(HARRequest.self, forKey: .request)
    response = try c.decode(HARResponse.self, forKey: .response)
    cache = HARCache()
    timings = (try? c.decodeIfPresent(HARTimings.self, forKey: .timings)) ?? HARTimings()
    order = try? c.decodeIfPresent(Int.self, forKey: .order)
  }
}

/// `entries[].cache`; cassettes keep no cache information, so this is always `{}`.
public struct HARCache: Codable, Sendable, Hashable {
  /// An empty cache object.
  public init() {}
  /// Ignores whatever the file holds.
  public init(from decoder: any Decoder) throws {}
  /// Writes `{}`.
  public func encode(to encoder: any Encoder) throws {
    _ = encoder.container(keyedBy: CodingKeys.self)
  }
  enum CodingKeys: CodingKey {}
}

/// `entries[].timings`, milliseconds; `-1` means "not applicable".
public struct HARTimings: Codable, Sendable, Hashable {
  /// Time to send the request.
  public var send: Double
  /// Time waiting for the first byte.
  public var wait: Double
  /// Time to read the response.
  public var receive: Double
  /// Zero timings (cassettes do not record durations).
  public init(send: Double = 0, wait: Double = 0, receive: Double = 0) {
    self.send = send
    self.wait = wait
    self.receive = receive
  }
  /// Decodes leniently.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    send = (try? c.decodeIfPresent(Double.self, forKey: .send)) ?? 0
    wait = (try? c.decodeIfPresent(Double.self, forKey: .wait)) ?? 0
    receive = (try? c.decodeIfPresent(Double.self, forKey: .receive)) ?? 0
  }
}

/// A `name`/`value` pair: a header, a query parameter or a cookie.
public struct HARNameValue: Codable, Sendable, Hashable {
  /// The name.
  public var name: String
  /// The value (decoded, for query parameters).
  public var value: String
  /// A pair.
  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
  /// Decodes leniently (a missing value is empty).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    name = try c.decodeIfPresent(String.self, forKey: .name) ?? ""
    value = try c.decodeIfPresent(String.self, forKey: .value) ?? ""
  }
}

/// `entries[].request`.
public struct HARRequest: Codable, Sendable, Hashable {
  /// The method, e.g. `"POST"`.
  public var method: String
  /// The absolute URL (query included, no fragment).
  public var url: String
  /// `"HTTP/1.1"` or as recorded.
  public var httpVersion: String
  /// Cookies; cassettes always write `[]` (cookies are not sent).
  public var cookies: [HARNameValue]
  /// Header fields in order.
  public var headers: [HARNameValue]
  /// The URL's query parameters, decoded, in order.
  public var queryString: [HARNameValue]
  /// The body, when there is one.
  public var postData: HARPostData?
  /// Header bytes, `-1` when unknown.
  public var headersSize: Int
  /// Body bytes, `-1` when unknown.
  public var bodySize: Int

  /// A request.
  public init(
    method: String, url: String, httpVersion: String = "HTTP/1.1",
    cookies: [HARNameValue] = [], headers: [HARNameValue], queryString: [HARNameValue],
    postData: HARPostData? = nil, headersSize: Int = -1, bodySize: Int = -1
  ) {
    self.method = method
    self.url = url
    self.httpVersion = httpVersion
    self.cookies = cookies
    self.headers = headers
    self.queryString = queryString
    self.postData = postData
    self.headersSize = headersSize
    self.bodySize = bodySize
  }

  /// Decodes leniently (`method` and `url` are required).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    method = try c.decode(String.self, forKey: .method)
    url = try c.decode(String.self, forKey: .url)
    httpVersion = try c.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
    cookies = (try? c.decodeIfPresent([HARNameValue].self, forKey: .cookies)) ?? []
    headers = try c.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
    queryString = try c.decodeIfPresent([HARNameValue].self, forKey: .queryString) ?? []
    postData = try c.decodeIfPresent(HARPostData.self, forKey: .postData)
    headersSize = (try? c.decodeIfPresent(Int.self, forKey: .headersSize)) ?? -1
    bodySize = (try? c.decodeIfPresent(Int.self, forKey: .bodySize)) ?? -1
  }
}

/// `request.postData`: the body as text (or base64 with `_encoding`), or form `params`.
public struct HARPostData: Codable, Sendable, Hashable {
  /// The body's media type.
  public var mimeType: String
  /// The body text (pretty, key-sorted JSON for JSON bodies).
  public var text: String?
  /// Posted parameters (import only; cassettes write `text`): HAR 1.2's description of a
  /// URL-encoded or multipart form, read only when there is no `text`.
  public var params: [HARParam]?
  /// `"base64"` when `text` is base64 (`_encoding`, as HAR 1.3 proposes `encoding`).
  public var encoding: String?

  /// Post data.
  public init(mimeType: String, text: String?, encoding: String? = nil) {
    self.mimeType = mimeType
    self.text = text
    self.params = nil
    self.encoding = encoding
  }

  enum CodingKeys: String, CodingKey {
    case mimeType, text, params
    case encoding = "_encoding"
    case standardEncoding = "encoding"
  }

  /// Decodes leniently; reads `_encoding` or `encoding`. A `params` list that is not a
  /// list of parameters is an error, not a missing body.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    mimeType = try c.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
    text = try c.decodeIfPresent(String.self, forKey: .text)
    params = try c.decodeIfPresent([HARParam].self, forKey: .params)
    encoding =
      try c.decodeIfPresent(String.self, forKey: .encoding)
      ?? c.decodeIfPresent(String.self, forKey: .standardEncoding)
  }

  /// Writes `mimeType`, `text`, `params` and `_encoding` when present.
  public func encode(to encoder: any Encoder) throws {
    var c = encoder.container(keyedBy: CodingKeys.self)
    try c.encode(mimeType, forKey: .mimeType)
    try c.encodeIfPresent(text, forKey: .text)
    try c.encodeIfPresent(params, forKey: .params)
    try c.encodeIfPresent(encoding, forKey: .encoding)
  }
}

/// `entries[].response`.
public struct HARResponse: Codable, Sendable, Hashable {
  /// The status code.
  public var status: Int
  /// The reason phrase.
  public var statusText: String
  /// `"HTTP/1.1"` or as recorded.
  public var httpVersion: String
  /// Cookies; cassettes always write `[]`.
  public var cookies: [HARNameValue]
  /// Header fields kept by the rules' allow-list, in order.
  public var headers: [HARNameValue]
  /// The body.
  public var content: HARContent
  /// The `Location` target, or `""`.
  public var redirectURL: String
  /// Header bytes, `-1` when unknown.
  public var headersSize: Int
  /// Body bytes, `-1` when unknown.
  public var bodySize: Int

  /// A response.
  public init(
    status: Int, statusText: String, httpVersion: String = "HTTP/1.1",
    cookies: [HARNameValue] = [], headers: [HARNameValue], content: HARContent,
    redirectURL: String = "", headersSize: Int = -1, bodySize: Int = -1
  ) {
    self.status = status
    self.statusText = statusText
    self.httpVersion = httpVersion
    self.cookies = cookies
    self.headers = headers
    self.content = content
    self.redirectURL = redirectURL
    self.headersSize = headersSize
    self.bodySize = bodySize
  }

  /// Decodes leniently (`status` is required).
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    status = try c.decode(Int.self, forKey: .status)
    statusText = try c.decodeIfPresent(String.self, forKey: .statusText) ?? ""
    httpVersion = try c.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP/1.1"
    cookies = (try? c.decodeIfPresent([HARNameValue].self, forKey: .cookies)) ?? []
    headers = try c.decodeIfPresent([HARNameValue].self, forKey: .headers) ?? []
    content = try c.decodeIfPresent(HARContent.self, forKey: .content) ?? HARContent()
    redirectURL = try c.decodeIfPresent(String.self, forKey: .redirectURL) ?? ""
    headersSize = (try? c.decodeIfPresent(Int.self, forKey: .headersSize)) ?? -1
    bodySize = (try? c.decodeIfPresent(Int.self, forKey: .bodySize)) ?? -1
  }
}

/// `response.content`: the decoded body as text, or base64 with `encoding: "base64"`.
public struct HARContent: Codable, Sendable, Hashable {
  /// Decoded body length in bytes.
  public var size: Int
  /// The body's media type (the `Content-Type` value), or `""`.
  public var mimeType: String
  /// The body text (pretty, key-sorted JSON for JSON bodies), or base64.
  public var text: String?
  /// `"base64"` when `text` is base64.
  public var encoding: String?

  /// Content.
  public init(size: Int = 0, mimeType: String = "", text: String? = nil, encoding: String? = nil) {
    self.size = size
    self.mimeType = mimeType
    self.text = text
    self.encoding = encoding
  }

  /// Decodes leniently.
  public init(from decoder: any Decoder) throws {
    let c = try decoder.container(keyedBy: CodingKeys.self)
    size = (try? c.decodeIfPresent(Int.self, forKey: .size)) ?? 0
    mimeType = try c.decodeIfPresent(String.self, forKey: .mimeType) ?? ""
    text = try c.decodeIfPresent(String.self, forKey: .text)
    encoding = try c.decodeIfPresent(String.self, forKey: .encoding)
  }
}
