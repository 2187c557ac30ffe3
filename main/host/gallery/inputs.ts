import type { GalleryInputData } from '../../../preload/contract';
import type { KeyValueInput, RegistryArgument, RegistryInput, RegistryPackage, RegistryTransport } from './server-json';

/**
 * The inputs a package or remote asks the person for, each under the key `--set` uses: an
 * environment variable or header by its name, a positional argument by its valueHint, a named
 * argument by its flag without dashes, and a `{variable}` of a fixed value by its name. A fixed
 * `value` without variables asks nothing.
 */
export interface InputSpec {
  readonly key: string;
  readonly kind: GalleryInputData['kind'];
  readonly input: RegistryInput;
  readonly repeated: boolean;
}

function view(spec: InputSpec): GalleryInputData {
  const { input } = spec;
  return {
    key: spec.key,
    kind: spec.kind,
    ...(input.description ? { description: input.description } : {}),
    required: input.isRequired === true,
    secret: input.isSecret === true,
    ...(input.default !== undefined && !input.isSecret ? { default: input.default } : {}),
    ...(input.choices?.length ? { choices: input.choices } : {}),
    ...(input.format ? { format: input.format } : {}),
    ...(input.placeholder ? { placeholder: input.placeholder } : {}),
    ...(spec.repeated ? { repeated: true } : {}),
  };
}

function variablesOf(owner: { variables?: Record<string, RegistryInput> | undefined }, kind: InputSpec['kind'] = 'variable'): InputSpec[] {
  return Object.entries(owner.variables ?? {}).map(([key, input]) => ({ key, kind, input, repeated: false }));
}

export function argumentKey(arg: RegistryArgument, index: number): string {
  if (arg.type === 'named' && arg.name) return arg.name.replace(/^-+/, '');
  return arg.valueHint ?? `arg${index + 1}`;
}

function argumentInputs(args: readonly RegistryArgument[] | undefined): InputSpec[] {
  return (args ?? []).flatMap((arg, index) =>
    arg.value !== undefined ? variablesOf(arg) : [{ key: argumentKey(arg, index), kind: 'argument' as const, input: arg, repeated: arg.isRepeated === true }],
  );
}

function keyValueInputs(list: readonly KeyValueInput[] | undefined, kind: 'env' | 'header'): InputSpec[] {
  return (list ?? []).flatMap((item) => (item.value !== undefined ? variablesOf(item) : [{ key: item.name, kind, input: item, repeated: false }]));
}

export function packageInputs(pkg: RegistryPackage): InputSpec[] {
  return dedupe([...argumentInputs(pkg.runtimeArguments), ...argumentInputs(pkg.packageArguments), ...keyValueInputs(pkg.environmentVariables, 'env')]);
}

export function remoteInputs(remote: RegistryTransport): InputSpec[] {
  return dedupe([...variablesOf(remote), ...keyValueInputs(remote.headers, 'header')]);
}

/** A key named twice (a variable shared by two arguments) is asked once. */
function dedupe(specs: InputSpec[]): InputSpec[] {
  const seen = new Set<string>();
  return specs.filter((spec) => !seen.has(spec.key) && seen.add(spec.key));
}

export function inputViews(specs: readonly InputSpec[]): GalleryInputData[] {
  return specs.map(view);
}
