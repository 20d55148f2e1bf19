import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * A resolver whose schema module loads on first use (or on `preload`): the sign-in page is the first
 * route, and the contracts' schemas with zod weigh more than the rest of that page.
 */
export function lazyResolver<Input extends FieldValues, Output>(
  load: () => Promise<Resolver<Input, unknown, Output>>,
): { resolver: Resolver<Input, unknown, Output>; preload: () => void } {
  let loaded: Promise<Resolver<Input, unknown, Output>> | undefined;
  const get = () => {
    loaded ??= load();
    return loaded;
  };
  return {
    resolver: async (values, context, options) => (await get())(values, context, options),
    preload: () => void get().catch(() => undefined),
  };
}
