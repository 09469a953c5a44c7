import Foundation

/// The package's module graph: each target's name, kind and the targets it depends on.
/// Built from `swift package dump-package` (declared edges) and from the `import`
/// statements of each target's sources (edges the compiler could resolve implicitly).
struct ModuleGraph: Sendable {
  /// One target.
  struct Target: Sendable, Hashable {
    /// `regular`, `executable`, `test` or `system`.
    var kind: String
    /// Targets of this package it depends on.
    var dependencies: Set<String>
  }

  /// Targets by name.
  var targets: [String: Target]

  /// The declared graph from `dump-package` JSON.
  init(dumpPackageJSON data: Data) throws {
    let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    var targets: [String: Target] = [:]
    for case let target as [String: Any] in root["targets"] as? [Any] ?? [] {
      guard let name = target["name"] as? String else { continue }
      var dependencies: Set<String> = []
      for case let dependency as [String: Any] in target["dependencies"] as? [Any] ?? [] {
        for key in ["byName", "target"] {
          if let parts = dependency[key] as? [Any], let first = parts.first as? String {
            dependencies.insert(first)
          }
        }
      }
      targets[name] = Target(
        kind: target["type"] as? String ?? "regular", dependencies: dependencies)
    }
    self.targets = targets
  }

  init(targets: [String: Target]) { self.targets = targets }

  /// A copy with one more edge, for showing that a rule catches it.
  func adding(_ from: String, dependsOn to: String) -> ModuleGraph {
    var copy = self
    copy.targets[from, default: Target(kind: "regular", dependencies: [])].dependencies.insert(to)
    return copy
  }
}

/// The rules docs/ARCHITECTURE.md ("Modules and rules") states, as data.
enum DependencyRules {
  static let adapters: Set<String> = ["FirebaseUserBackend", "NCMBUserBackend", "FakeUserBackend"]
  static let testingModules: Set<String> = [
    "HTTPReplay", "BackendEmulator", "UserBackendContracts", "UserBackendTesting", "BaasBench",
  ]
  /// Modules an app links through the factory: none of them may reach test tooling.
  static let appModules: Set<String> = [
    "UserBackendKit", "BackendHTTP", "AdapterSupport", "NCMBSigning", "AccountDatabase",
    "FirebaseUserBackend", "NCMBUserBackend", "FakeUserBackend", "UserBackends",
    "FirebaseTokenVerification",
  ]

  /// Every broken rule, one sentence each; empty when the graph follows them all.
  static func violations(in graph: ModuleGraph) -> [String] {
    var found: [String] = []
    let ours = Set(graph.targets.filter { $0.value.kind != "system" }.keys)
    for (name, target) in graph.targets.sorted(by: { $0.key < $1.key }) where target.kind != "test"
    {
      let ourDependencies = target.dependencies.intersection(ours)
      switch name {
      case "UserBackendKit" where !ourDependencies.isEmpty:
        found.append(
          "UserBackendKit (the port) depends on \(ourDependencies.sorted()); only system libraries are allowed"
        )
      case "BackendHTTP" where !ourDependencies.isEmpty:
        found.append("BackendHTTP must be a leaf but depends on \(ourDependencies.sorted())")
      default: break
      }
      if adapters.contains(name) {
        for other in target.dependencies.intersection(adapters) where other != name {
          found.append("adapter \(name) depends on adapter \(other)")
        }
      }
      if appModules.contains(name) {
        for tool in target.dependencies.intersection(testingModules) {
          found.append("\(name) (linked by apps) depends on test tooling \(tool)")
        }
      }
      if name == "FirebaseTokenVerification" {
        let allowed: Set<String> = ["UserBackendKit", "BackendHTTP", "CCrypto"]
        for extra in target.dependencies.subtracting(allowed).sorted() {
          found.append(
            "FirebaseTokenVerification depends on \(extra); only the port and BackendHTTP")
        }
      }
      if name == "BackendEmulator" {
        for adapter in target.dependencies.intersection(adapters) {
          found.append("BackendEmulator depends on client adapter \(adapter)")
        }
      }
      for dependency in target.dependencies
      where graph.targets[dependency]?.kind == "executable" {
        found.append("\(name) depends on executable \(dependency)")
      }
    }
    return found
  }
}
