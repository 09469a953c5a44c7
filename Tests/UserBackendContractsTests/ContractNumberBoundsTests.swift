import Foundation
import Testing
import UserBackendContracts
import UserBackendKit

/// Issue 16 item 6: numbers and sizes in contract files are checked before use.
@Suite("Contract files: numbers and sizes are bounded", .timeLimit(.minutes(1)))
struct ContractNumberBoundsTests {
  static func contract(seconds: String) -> String {
    """
    {"name": "clock", "description": "d", "requires": ["controllableClock"],
     "steps": [{"op": "advanceClock", "input": {"seconds": \(seconds)}}]}
    """
  }

  func load(_ text: String) throws -> Contract {
    let dir = FileManager.default.temporaryDirectory
      .appendingPathComponent("ContractNumberBounds-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let file = dir.appendingPathComponent("clock.json")
    try Data(text.utf8).write(to: file)
    return try ContractLoader.load(file: file)
  }

  @Test(
    "advanceClock seconds beyond 100 years, negative or not finite are refused, naming the field",
    arguments: [
      "1e300", "1.7976931348623157e308", "3155760001", "-1", "1e19", "9223372036854775808",
    ])
  func refused(_ seconds: String) throws {
    let error = try #require(throws: ContractLoadError.self) {
      _ = try load(Self.contract(seconds: seconds))
    }
    #expect(error.description.contains("seconds"), "\(error)")
  }

  @Test(
    "advanceClock seconds up to 100 years are accepted", arguments: ["0", "3600", "3155760000"])
  func accepted(_ seconds: String) throws {
    #expect(try load(Self.contract(seconds: seconds)).steps.count == 1)
  }

  @Test("a contract file past 1 MiB is refused without reading it all")
  func oversizedFile() throws {
    let padding = String(repeating: " ", count: BoundedFileRead.smallFileLimit)
    let error = try #require(throws: ContractLoadError.self) {
      _ = try load(Self.contract(seconds: "1") + padding)
    }
    #expect(error.description.contains("larger than"), "\(error)")
  }
}
