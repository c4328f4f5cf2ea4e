import NeuralCore

/// One model file Booth runs: its name, the sha256 `scripts/fetch-models` pins, and the input and
/// output shapes the stage that runs it expects. The catalog is `ModelFile+Catalog.swift`.
public struct ModelFile: Sendable, Hashable, CustomStringConvertible {
    /// The name without extension, e.g. `face_detection_short_range`.
    public let name: String
    public let sha256: String
    /// Input shapes, in the model's order.
    public let inputs: [[Int]]
    /// Output shapes (a model may list them in either order; see `hasShapes`).
    public let outputs: [[Int]]

    public init(_ name: String, sha256: String, inputs: [[Int]], outputs: [[Int]]) {
        self.name = name
        self.sha256 = sha256
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The extension every model file has.
    public static let fileExtension = ".tflite"

    /// The file's name in a models folder.
    public var fileName: String { name + ModelFile.fileExtension }

    public var description: String { fileName }

    /// Whether `model` has this file's inputs (in order) and outputs (in any order).
    public func hasShapes(of model: TFLiteModel) -> Bool {
        let haveInputs = model.inputs.map { model.tensors[$0].shape }
        let haveOutputs = model.outputs.map { model.tensors[$0].shape }
        return haveInputs == inputs && haveOutputs.sorted(by: ModelFile.before) == outputs.sorted(by: ModelFile.before)
    }

    /// Why `model` is not this file: its shapes against the expected ones.
    func shapeError(of model: TFLiteModel) -> ModelError {
        func list(_ shapes: [[Int]]) -> String {
            shapes.map { $0.map(String.init).joined(separator: "×") }.joined(separator: ", ")
        }
        return .wrongModel(name + ": inputs " + list(model.inputs.map { model.tensors[$0].shape }) + " → outputs "
                           + list(model.outputs.map { model.tensors[$0].shape }) + ", expected " + list(inputs)
                           + " → " + list(outputs))
    }

    static func before(_ a: [Int], _ b: [Int]) -> Bool { a.lexicographicallyPrecedes(b) }
}
