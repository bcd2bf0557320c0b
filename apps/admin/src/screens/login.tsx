import { useLogin } from '@refinedev/core';
import { Alert, Button, Card, Typography } from 'antd';

export function LoginScreen() {
  const { mutate: login, isPending, error, data } = useLogin();
  const failure = data && !data.success ? data.error?.message : error?.message;
  return (
    <div style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', background: '#f0f2f5' }}>
      <Card style={{ width: 420 }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          NADI console
        </Typography.Title>
        <Typography.Paragraph type="secondary">
          Sign in with your operator wallet. The wallet signs a sign-in message (EIP-4361); nothing is sent on chain.
        </Typography.Paragraph>
        {failure ? <Alert type="error" showIcon message={failure} style={{ marginBottom: 16 }} /> : null}
        <Button type="primary" size="large" block loading={isPending} onClick={() => login({})}>
          Sign in with wallet
        </Button>
      </Card>
    </div>
  );
}
