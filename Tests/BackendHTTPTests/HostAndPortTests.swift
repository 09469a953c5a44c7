import BackendHTTP
import Foundation
import Testing

@Suite("HostAndPort and the port rule", .timeLimit(.minutes(1)))
struct HostAndPortTests {
  @Test(
    "host:port settings that are read",
    arguments: [
      ("127.0.0.1:9099", "127.0.0.1", 9099), ("localhost:1", "localhost", 1),
      ("[::1]:65535", "::1", 65535), ("emulator_1:8080", "emulator_1", 8080),
      ("firebase-emulator.internal:9099", "firebase-emulator.internal", 9099),
      ("  localhost:9099\n", "localhost", 9099), ("LOCALHOST:9099", "localhost", 9099),
      ("[FD00::1]:9099", "fd00::1", 9099),
    ])
  func good(text: String, host: String, port: Int) throws {
    let parsed = try HostAndPort(parsing: text)
    #expect(parsed.host == host)
    #expect(parsed.port == port)
  }

  @Test(
    "host:port settings that are refused, each with the part that is wrong",
    arguments: [
      ("127.0.0.1", "host:port"), ("http://127.0.0.1:9099", "no scheme"),
      ("127.0.0.1:9099/", "no scheme"), (":9099", "host name"), ("a?b:9099", "host name"),
      ("user@host:9099", "host name"), ("exämple:9099", "host name"), ("a..b:9099", "host name"),
      ("host:0", "leading zeros"), ("host:0080", "leading zeros"), ("host:65536", "65535"),
      ("host:+9099", "65535"), ("host:٩٠٩٩", "65535"), ("host:", "65535"),
      ("host:044095", "leading zeros"), ("::1:9099", "[::1]:9099"), ("[zz]:9099", "IPv6"),
      ("127.1:9099", "127.0.0.1"), ("127.000.000.001:9099", "127.0.0.1"),
      ("[0:0:0:0:0:0:0:1]:9099", "[::1]"),
    ])
  func bad(text: String, mentions: String) {
    let problem = #expect(throws: HostAndPort.Problem.self) { try HostAndPort(parsing: text) }
    #expect(problem?.reason.contains(mentions) == true, "\(problem?.reason ?? "nothing")")
  }

  @Test("an IPv6 host is written back in brackets")
  func authority() throws {
    #expect(try HostAndPort(parsing: "[::1]:9099").authority == "[::1]:9099")
    #expect(try HostAndPort(parsing: "localhost:9099").authority == "localhost:9099")
  }

  @Test(
    "a port in a URL is read by the same rule",
    arguments: [
      ("http://h:9099/", true), ("http://h/", true), ("http://[::1]:1/", true),
      ("http://h:0080/", false), ("http://h:044095/", false), ("http://h:65536/", false),
      ("http://h:0/", false), ("http://h:/", false),
    ])
  func urlPorts(text: String, usable: Bool) throws {
    let url = try #require(URL(string: text))
    #expect(URLLoaderSupport.hasUsablePort(url) == usable)
  }
}
