// Every sign-in query starts with 'sign', so a sign-in (or a new day) refreshes the calendar and the
// history together.

export const signQueryKey = 'sign';

export const signKeys = {
  all: () => [signQueryKey] as const,
  config: () => [signQueryKey, 'config'] as const,
  list: () => [signQueryKey, 'list'] as const,
};
