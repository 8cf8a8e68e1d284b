// The mocha globals web-test-runner provides (no @types/mocha in the pinned toolchain).
interface MochaContext {
  timeout(ms: number): void;
  skip(): never;
}
type MochaFn = (this: MochaContext) => void | Promise<void>;
declare function describe(name: string, body: (this: MochaContext) => void): void;
declare function it(name: string, body: MochaFn): void;
/** A test written but not run (say why beside it). */
declare namespace it { function skip(name: string, body: MochaFn): void; }
declare function before(body: MochaFn): void;
declare function after(body: MochaFn): void;
declare function beforeEach(body: MochaFn): void;
declare function afterEach(body: MochaFn): void;
