import BackendHTTP
import Foundation
import NCMBSigning
import NCMBUserBackend
import Testing
import UserBackendKit

/// A known-answer vector from `docs/wire/ncmb.md` §2.
struct SignatureVector: Sendable, CustomTestStringConvertible {
  var name: String
  var method: HTTPMethod
  var url: String
  var applicationKey: String
  var clientKey: String
  var timestamp: String
  var expected: String
  var testDescription: String { name }
}

private let docAppKey = "6145f91061916580c742f806bab67649d10f45920246ff459404c46f00ff3e56"
private let docClientKey = "1343d198b510a0315db1c03f3aa0e32418b7a743f8e4b47cbff670601345cf75"
private let sdkAppKey = String(repeating: "0123456789abcdef", count: 4)
private let sdkClientKey = String(repeating: "1", count: 64)
private let sdkURL = "https://piyo.example.com/1986-02-04/classes/TestClass/abcdef01?p=q&r=t&s"

let signatureVectors: [SignatureVector] = [
  SignatureVector(
    name: "1 official example", method: .get,
    url: "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass"
      + "?where=%7B%22testKey%22%3A%22testValue%22%7D",
    applicationKey: docAppKey, clientKey: docClientKey, timestamp: "2013-12-02T02:44:35.452Z",
    expected: "AltGkQgXurEV7u0qMd+87ud7BKuueldoCjaMgVc9Bes="),
  SignatureVector(
    name: "1b official example, old FQDN", method: .get,
    url: "https://mb.api.cloud.nifty.com/2013-09-01/classes/TestClass"
      + "?where=%7B%22testKey%22%3A%22testValue%22%7D",
    applicationKey: docAppKey, clientKey: docClientKey, timestamp: "2013-12-02T02:44:35.452Z",
    expected: "/mQAJJfMHx2XN9mPZ9bDWR9VIeftZ97ntzDIRw0MQ4M="),
  SignatureVector(
    name: "2 GET with value-less parameter", method: .get, url: sdkURL,
    applicationKey: sdkAppKey, clientKey: sdkClientKey, timestamp: "1986-02-04T12:34:56.789Z",
    expected: "Gr/jVnob8/fucYAUwW8fXEVllonyDH1NMirCUHgoYZU="),
  SignatureVector(
    name: "3 POST, query not signed", method: .post, url: sdkURL,
    applicationKey: sdkAppKey, clientKey: sdkClientKey, timestamp: "1986-02-04T12:34:56.789Z",
    expected: "ArT9YDP4fyy8gDxTm65k5uPkXxDjP5LquDNS76cSZqk="),
  SignatureVector(
    name: "4 PUT, query not signed", method: .put, url: sdkURL,
    applicationKey: sdkAppKey, clientKey: sdkClientKey, timestamp: "1986-02-04T12:34:56.789Z",
    expected: "2cXESZFIx0Zed+XiKrf+VJjvo2/uxuRDw/J3sjqXogI="),
  SignatureVector(
    name: "5 DELETE, query not signed", method: .delete, url: sdkURL,
    applicationKey: sdkAppKey, clientKey: sdkClientKey, timestamp: "1986-02-04T12:34:56.789Z",
    expected: "873rompizKVX/dxhRLtcrBlOtRO/q1NeEvwYl8qEj/c="),
  SignatureVector(
    name: "6 POST classes", method: .post,
    url: "https://mbaas.api.nifcloud.com/2013-09-01/classes/test",
    applicationKey: "a69ec93ef132f0fdsfdsfds7d24b55d1926bd2c191c0eb054",
    clientKey: "6afad6056749cb55dfdsggwwcxv54w06bdef688fdsfdsfdsfds3a695d0",
    timestamp: "2020-03-30T05:35:37.974Z",
    expected: "PypCIPOo1vASUWe1IUT5DWky/niMGqS7HWwFwKvj7NA="),
  SignatureVector(
    name: "7 script endpoint", method: .get,
    url: "https://script.mbaas.api.nifcloud.com/2015-09-01/script/testscript.js",
    applicationKey: docAppKey, clientKey: docClientKey, timestamp: "2022-03-14T02:44:06.046Z",
    expected: "gvTa2jKaWCNwPvDK0vADjLUrFOYK/AeHuKK1u4UuC0U="),
  SignatureVector(
    name: "8 GET two parameters", method: .get,
    url: "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass"
      + "?order=-createDate&where=%7B%22test%22%3A%22test%22%7D",
    applicationKey: "d2055f34f748bc0da5576ef3bc1bc7c2fea492cb775a1f583c5c183ff0b6ff2d",
    clientKey: "dbe419dd750daf131aaade194a27fdsfdsfdsfdsfvcvc72001af764d3835cf3812",
    timestamp: "2020-06-22T04:58:21.128Z",
    expected: "FM/p6H9GXwimzoAQzKFA7kq2w+2zaux2pdw3C/g0Nx8="),
  SignatureVector(
    name: "9 GET three parameters, wire order differs", method: .get,
    url: "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass"
      + "?where=%7B%22message%22%3A%22Hello%22%7D&limit=3&order=-createDate",
    applicationKey: "5ae42d1c052d9c5bafdsfdsvcxvcxvseeeeeeexcxc1985c85c49c4054",
    clientKey: "3e599d0811af4e39fd454dfsgfdgfgfdgfd454775cbec0da8df2d4b396d785",
    timestamp: "2020-06-22T04:58:21.128Z",
    expected: "HdbNMQsBEm/P/ojx2GpjSPyCTigCvh6Bo/8NZdClaho="),
]

@Suite("NCMBSignature", .timeLimit(.minutes(2)))
struct NCMBSignatureTests {
  @Test("known-answer vectors sign and verify", arguments: signatureVectors)
  func knownAnswer(_ vector: SignatureVector) throws {
    let url = try #require(URL(string: vector.url))
    var request = HTTPRequest(method: vector.method, url: url, body: Data("{\"a\":1}".utf8))
    let signature = NCMBSignature.sign(
      request: request, applicationKey: vector.applicationKey, clientKey: vector.clientKey,
      timestamp: vector.timestamp)
    #expect(signature == vector.expected)
    #expect(signature.count == 44)

    request.headerFields = [
      "X-NCMB-Application-Key": vector.applicationKey,
      "X-NCMB-Timestamp": vector.timestamp,
      "X-NCMB-Signature": signature,
    ]
    #expect(
      NCMBSignature.verify(
        request: request, clientKey: vector.clientKey, acceptedHosts: [url.host ?? ""],
        applicationKey: vector.applicationKey))
    #expect(!NCMBSignature.verify(request: request, clientKey: vector.clientKey + "x"))
  }

  @Test("the official string to sign, byte for byte")
  func officialStringToSign() throws {
    let query = NCMBSignature.encodeQuery([
      URLQueryItem(name: "where", value: #"{"testKey":"testValue"}"#)
    ])
    #expect(query == "where=%7B%22testKey%22%3A%22testValue%22%7D")
    let url = try #require(
      URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/classes/TestClass?" + query))
    let text = NCMBSignature.stringToSign(
      request: HTTPRequest(method: .get, url: url), applicationKey: docAppKey,
      timestamp: "2013-12-02T02:44:35.452Z")
    #expect(
      text == """
        GET
        mbaas.api.nifcloud.com
        /2013-09-01/classes/TestClass
        SignatureMethod=HmacSHA256&SignatureVersion=2&X-NCMB-Application-Key=\(docAppKey)\
        &X-NCMB-Timestamp=2013-12-02T02:44:35.452Z&where=%7B%22testKey%22%3A%22testValue%22%7D
        """)
  }

  @Test("GET with characters that need encoding signs the wire bytes")
  func getWithEncodedCharacters() throws {
    let items = [
      URLQueryItem(name: "userName", value: "a b!&+:é"),
      URLQueryItem(name: "password", value: "p@ss/w=rd~_.-"),
      URLQueryItem(name: "Alpha", value: "日本"),
      URLQueryItem(name: "flag", value: nil),
    ]
    let query = NCMBSignature.encodeQuery(items)
    #expect(
      query == "userName=a%20b%21%26%2B%3A%C3%A9&password=p%40ss%2Fw%3Drd~_.-"
        + "&Alpha=%E6%97%A5%E6%9C%AC&flag")
    let url = try #require(URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/login?" + query))
    let request = HTTPRequest(method: .get, url: url)
    #expect(request.rawQuery == query)

    // Independently written string to sign: keys sorted in byte order ("Alpha" < "S…" <
    // "X-…" < "flag" < "password" < "userName").
    let expectedText =
      "GET\nmbaas.api.nifcloud.com\n/2013-09-01/login\n"
      + "Alpha=%E6%97%A5%E6%9C%AC&" + Fixture.fixedParams
      + "&flag&password=p%40ss%2Fw%3Drd~_.-&userName=a%20b%21%26%2B%3A%C3%A9"
    #expect(
      NCMBSignature.stringToSign(
        request: request, applicationKey: Fixture.applicationKey, timestamp: Fixture.timestamp)
        == expectedText)
    let signature = NCMBSignature.sign(
      request: request, applicationKey: Fixture.applicationKey, clientKey: Fixture.clientKey,
      timestamp: Fixture.timestamp)
    #expect(signature == Fixture.hmac(expectedText))

    var received = request
    received.headerFields = [
      "X-NCMB-Application-Key": Fixture.applicationKey,
      "X-NCMB-Timestamp": Fixture.timestamp, "X-NCMB-Signature": signature,
    ]
    #expect(NCMBSignature.verify(request: received, clientKey: Fixture.clientKey))
  }

  @Test("POST, PUT and DELETE do not sign the query", arguments: [HTTPMethod.post, .put, .delete])
  func queryNotSignedForBodies(_ method: HTTPMethod) throws {
    let withQuery = try #require(
      URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/users/abc?x=1&y=%20"))
    let withoutQuery = try #require(
      URL(string: "https://mbaas.api.nifcloud.com/2013-09-01/users/abc"))
    let expectedText =
      "\(method.rawValue)\nmbaas.api.nifcloud.com\n/2013-09-01/users/abc\n" + Fixture.fixedParams
    for url in [withQuery, withoutQuery] {
      let signature = NCMBSignature.sign(
        request: HTTPRequest(method: method, url: url, body: Data("{}".utf8)),
        applicationKey: Fixture.applicationKey, clientKey: Fixture.clientKey,
        timestamp: Fixture.timestamp)
      #expect(signature == Fixture.hmac(expectedText))
    }
    // GET with the same query does sign it.
    let get = NCMBSignature.sign(
      request: HTTPRequest(method: .get, url: withQuery), applicationKey: Fixture.applicationKey,
      clientKey: Fixture.clientKey, timestamp: Fixture.timestamp)
    #expect(
      get
        == Fixture.hmac(
          "GET\nmbaas.api.nifcloud.com\n/2013-09-01/users/abc\n" + Fixture.fixedParams
            + "&x=1&y=%20"))
  }

  @Test("the fqdn argument overrides the URL's host")
  func fqdnOverride() throws {
    let url = try #require(URL(string: "http://127.0.0.1:9099/2013-09-01/users"))
    let signature = NCMBSignature.sign(
      request: HTTPRequest(method: .post, url: url), applicationKey: Fixture.applicationKey,
      clientKey: Fixture.clientKey, timestamp: Fixture.timestamp, fqdn: "mbaas.api.nifcloud.com")
    #expect(
      signature
        == Fixture.hmac(
          "POST\nmbaas.api.nifcloud.com\n/2013-09-01/users\n" + Fixture.fixedParams))
  }

  @Test(
    "timestamps are UTC, 24-hour, with milliseconds",
    arguments: [
      (0.0, "1970-01-01T00:00:00.000Z"),
      (1_767_225_600.5, "2026-01-01T00:00:00.500Z"),
      (1_767_272_400.25, "2026-01-01T13:00:00.250Z"),
      (1_767_311_999.0, "2026-01-01T23:59:59.000Z"),
      (1.9999, "1970-01-01T00:00:01.999Z"),
      (-0.5, "1969-12-31T23:59:59.500Z"),
      (1_709_164_800.042, "2024-02-29T00:00:00.042Z"),
    ])
  func timestamps(_ seconds: Double, _ expected: String) {
    #expect(NCMBSignature.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
  }

  @Test("response signature vector 10 (docs/wire/ncmb.md §2)")
  func responseSignatureVector() throws {
    let url = try #require(URL(string: "http://localhost/2013-09-01/users"))
    let request = HTTPRequest(
      method: .post, url: url,
      headerFields: [
        "X-NCMB-Application-Key": "apikey", "X-NCMB-Timestamp": "2017-11-16T09:56:28.373Z",
      ])
    let body = Data(
      (#"{"createDate":"2013-08-28T11:27:16.446Z","objectId":"epaKcaYZqsREdSMY","#
        + #""sessionToken":"iXDIelJRY3ULBdms281VTmc5O","userName":"Yamada Tarou","#
        + #""authData":null}"#).utf8)
    let expected = "c8mzeCvMdRDK5BgI9vC37d2CsngCYnse2Mxqnr/uF2I="
    #expect(
      NCMBSignature.responseSignature(
        request: request, responseBody: body, applicationKey: "apikey", clientKey: "clientkey",
        timestamp: "2017-11-16T09:56:28.373Z") == expected)
    let good = HTTPResponse(
      status: 201, headerFields: ["X-NCMB-Response-Signature": expected], body: body)
    #expect(NCMBSignature.verifyResponse(good, to: request, clientKey: "clientkey") == true)
    var tampered = good
    tampered.body = Data(body.dropLast(2)) + Data("}}".utf8)
    #expect(NCMBSignature.verifyResponse(tampered, to: request, clientKey: "clientkey") == false)
    let unsigned = HTTPResponse(status: 201, body: body)
    #expect(NCMBSignature.verifyResponse(unsigned, to: request, clientKey: "clientkey") == nil)
  }
}
