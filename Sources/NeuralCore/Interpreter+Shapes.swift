extension Interpreter {
    /// Throws `ModelError.wrongModel` unless the model's inputs and outputs have exactly these
    /// shapes (in order). Each stage calls it at load with its model's shapes, so a valid model in
    /// the wrong place is refused with both shapes named instead of running and finding nothing.
    public func requireShapes(_ model: String, inputs: [[Int]], outputs: [[Int]]) throws(ModelError) {
        let haveInputs = (0..<inputCount).map(inputShape)
        let haveOutputs = (0..<outputCount).map(outputShape)
        if haveInputs != inputs || haveOutputs != outputs {
            throw .wrongModel(model + ": inputs " + Interpreter.shapeList(haveInputs) + " → outputs "
                              + Interpreter.shapeList(haveOutputs) + ", expected " + Interpreter.shapeList(inputs)
                              + " → " + Interpreter.shapeList(outputs))
        }
    }

    static func shapeList(_ shapes: [[Int]]) -> String {
        var out = ""
        for (k, shape) in shapes.enumerated() {
            if k > 0 { out += ", " }
            var dims = ""
            for (i, d) in shape.enumerated() { dims += (i > 0 ? "×" : "") + String(d) }
            out += dims.isEmpty ? "scalar" : dims
        }
        return out
    }
}
