import Passport
import Testing

@Test func readyHasTheLowestPriority() {
    #expect(Instruction.allCases.max() == .ready)
    #expect(Instruction.noFace < .moveCloser)
}
