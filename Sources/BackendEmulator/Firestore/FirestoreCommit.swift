import AccountDatabase
import BackendHTTP
import Foundation
import UserBackendKit

/// `POST …/documents:commit`: `writes[]` applied atomically at one time (all or none).
///
/// A write is `{"update":{"name","fields"}, "updateMask"?:{"fieldPaths":[…]},
/// "currentDocument"?:{"exists":bool}, "updateTransforms"?:[{"fieldPath",
/// "setToServerValue":"REQUEST_TIME"}]}` or `{"delete":"<name>", "currentDocument"?}`.
/// Every write must pass the owner rule, else the commit is 403 and nothing is written.
/// The answer: `{"writeResults":[{"updateTime","transformResults"?:[{"timestampValue"}]}],
/// "commitTime"}`; every server timestamp of the commit is `commitTime`. Other transforms
/// (increment, array unions, …), `transaction` and the legacy `transform` write are 400
/// `INVALID_ARGUMENT`.
struct FirestoreCommit {
  let handler: FirestoreHandler
  let path: FirestorePath

  func commit(_ body: Data, caller: FirestoreHandler.Caller) throws(FirestoreError)
    -> HTTPResponse
  {
    let object = try FirestoreHandler.body(body)
    if object["transaction"] != nil {
      throw .invalidArgument("This emulator does not serve transactions.")
    }
    guard let writes = object["writes"] as? [Any] else {
      throw .invalidArgument("A commit needs writes[].")
    }
    var parsed: [(write: DocumentWrite, transforms: Int)] = []
    for (index, raw) in writes.enumerated() {
      guard let write = raw as? [String: Any] else {
        throw .invalidArgument("Invalid value at 'writes[\(index)]': expected an object.")
      }
      parsed.append(try parse(write, index: index))
    }
    for entry in parsed { try handler.authorize(caller, entry.write.userID) }
    let result = try handler.apply(parsed.map(\.write), path: path)
    let time = DocumentTimestamp.rfc3339(result.commitTime) ?? ""
    let results: [[String: Any]] = parsed.map { entry in
      var json: [String: Any] = ["updateTime": time]
      if entry.transforms > 0 {
        json["transformResults"] = Array(
          repeating: ["timestampValue": time], count: entry.transforms)
      }
      return json
    }
    return WireResponse.json(200, ["writeResults": results, "commitTime": time])
  }

  private func parse(_ write: [String: Any], index: Int) throws(FirestoreError)
    -> (write: DocumentWrite, transforms: Int)
  {
    let at = "writes[\(index)]"
    let precondition = try self.precondition(write["currentDocument"], at: at)
    if let name = write["delete"] {
      guard let name = name as? String, let uid = path.uid(ofName: name) else {
        throw .invalidArgument("\(at).delete: not a users/{uid} document of this database.")
      }
      return (.delete(userID: uid, precondition: precondition), 0)
    }
    guard let update = write["update"] as? [String: Any] else {
      throw .invalidArgument("\(at): this emulator serves update and delete writes only.")
    }
    guard let name = update["name"] as? String, let uid = path.uid(ofName: name) else {
      throw .invalidArgument("\(at).update.name: not a users/{uid} document of this database.")
    }
    let fields = try FirestoreValueCoding.decodeFields(
      update["fields"], path: "\(at).update.fields")
    var mask: [String]? = nil
    if let updateMask = write["updateMask"] {
      let list = (updateMask as? [String: Any])?["fieldPaths"] as? [Any] ?? []
      guard updateMask is [String: Any], list.allSatisfy({ $0 is String }) else {
        throw .invalidArgument("\(at).updateMask.fieldPaths: expected a list of strings.")
      }
      mask = list.compactMap { $0 as? String }
    }
    var transforms: [String] = []
    for (position, raw) in ((write["updateTransforms"] as? [Any]) ?? []).enumerated() {
      guard let transform = raw as? [String: Any],
        let fieldPath = transform["fieldPath"] as? String,
        transform["setToServerValue"] as? String == "REQUEST_TIME", transform.count == 2
      else {
        throw .invalidArgument(
          "\(at).updateTransforms[\(position)]: this emulator serves "
            + "{\"fieldPath\", \"setToServerValue\": \"REQUEST_TIME\"} only.")
      }
      transforms.append(fieldPath)
    }
    let parsed = try FirestoreHandler.write(
      uid: uid, fields: fields, mask: mask, transforms: transforms, precondition: precondition)
    return (parsed, transforms.count)
  }

  private func precondition(_ raw: Any?, at: String) throws(FirestoreError)
    -> DocumentWrite.Precondition
  {
    guard let raw else { return .none }
    guard let object = raw as? [String: Any], object.count <= 1 else {
      throw .invalidArgument("\(at).currentDocument: this emulator serves {\"exists\": bool} only.")
    }
    guard let exists = object["exists"] else {
      if object.isEmpty { return .none }
      throw .invalidArgument("\(at).currentDocument: this emulator serves {\"exists\": bool} only.")
    }
    guard let flag = JSONBoolean.value(exists) else {
      throw .invalidArgument("\(at).currentDocument.exists: expected true or false.")
    }
    return flag ? .exists : .missing
  }
}
