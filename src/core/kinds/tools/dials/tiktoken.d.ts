// tiktoken rank files imported as their text (wrangler.toml's Text rule, the CLI build's and vitest's text loader).
declare module "*.tiktoken" {
  const text: string;
  export default text;
}
