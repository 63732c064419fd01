import { PersonalAccountsScreen } from './personal-accounts-page';

/** /operation/auth 个号授权: connecting first (OAuth, token paste, the scopes needed), then the same list. */
export default function OperationAuthPage() {
  return <PersonalAccountsScreen mode="connect" />;
}
