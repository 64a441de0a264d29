/** The one function of swagger-ui-dist we use (the package ships no types). */
declare module 'swagger-ui-dist' {
  export function absolutePath(): string;
}
