/** Page templates and the stylesheet are imported as text (webpack `asset/source`; tools/jest/text-transform.js in tests). */
declare module '*.eta' {
  const text: string;
  export default text;
}
declare module '*.css' {
  const text: string;
  export default text;
}
