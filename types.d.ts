// Text imports: prompts are embedded in the compiled binary, never read from disk at run time.
declare module "*.md" {
  const text: string;
  export default text;
}
