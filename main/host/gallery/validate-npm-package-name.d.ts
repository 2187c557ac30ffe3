/** The types of `validate-npm-package-name` (it ships none): its one function and its result. */
declare module 'validate-npm-package-name' {
  interface Result {
    readonly validForNewPackages: boolean;
    readonly validForOldPackages: boolean;
    readonly errors?: readonly string[];
    readonly warnings?: readonly string[];
  }
  function validate(name: string): Result;
  export = validate;
}
