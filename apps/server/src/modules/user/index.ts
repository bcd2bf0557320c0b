// The user module's public surface: the plugin, registration (with the accounts every user has),
// and the lookups other modules need.
export { userModule } from './routes.ts';
export { createUserWithAccounts, isRegistered, registerUser, shortAddress, type UserStart } from './service.ts';
export { addressesOf, findUserByAddress, findUserById, insertUserWithAncestors, lockUserRow, type NewUser, type UserRow } from './repo.ts';
export { consoleUser, directsOf, newUsersByDay, referrersOf, searchUsers, setUserFrozen, usersByAddresses, type ConsoleUserRow } from './console-repo.ts';
export { directReferralPage, findInSubtree } from './tree-repo.ts';
