import { useLogout } from '@refinedev/core';
import { Button, Result } from 'antd';
import { readSession } from '../lib/session.ts';

export function NoAccessScreen() {
  const { mutate: logout } = useLogout();
  const address = readSession()?.address;
  return (
    <Result
      status="403"
      title="No console access"
      subTitle={`${address ?? 'This wallet'} has no console role. An admin can grant one.`}
      extra={
        <Button type="primary" onClick={() => logout()}>
          Sign in with another wallet
        </Button>
      }
    />
  );
}
