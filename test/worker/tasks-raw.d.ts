// Vite's ?raw imports (fixture files as text) in Worker tests.
declare module "*?raw" {
  const text: string;
  export default text;
}
