import NeuralCore
import Testing

@Test func tensorTypeSizesFollowTheSchema() {
    #expect(TensorType(rawValue: 9) == .int8)
    #expect(TensorType.float16.byteSize == 2)
    #expect(TensorType.string.byteSize == nil)
}
