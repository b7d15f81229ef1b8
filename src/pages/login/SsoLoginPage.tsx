import { useSearchParams } from 'react-router-dom';
import { loginWithSsoToken } from '../../app/auth';
import SsoHandshake from './SsoHandshake';

/** /ssologin and /onlyLogin: sign in with the `ssotoken` query parameter. */
export default function SsoLoginPage() {
  const [params] = useSearchParams();
  const token = params.get('ssotoken');
  return <SsoHandshake signIn={token ? () => loginWithSsoToken(token) : null} />;
}
