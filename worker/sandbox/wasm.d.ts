/** wrangler (and the Workers test pool) compile an imported `.wasm` file into a WebAssembly.Module. */
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
