import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

/** The QR library loads with this component's first render, never with the home route. */
async function drawQr(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  // Dark modules on white: every phone camera reads that contrast, whatever the page theme.
  return toDataURL(text, { margin: 1, width: 360, errorCorrectionLevel: 'M', color: { dark: '#070b12', light: '#ffffff' } });
}

export function InviteQr({ link }: { link: string }) {
  const { t } = useTranslation();
  const qr = useQuery({ queryKey: ['user', 'invite-qr', link], queryFn: () => drawQr(link), staleTime: Infinity });
  if (qr.isPending) return <div className="invite-qr skeleton" aria-busy="true" />;
  if (qr.isError) return <p className="invite-qr invite-qr--error">{t('user.qrFailed')}</p>;
  return <img className="invite-qr" src={qr.data} alt={t('user.qrAlt')} width={180} height={180} />;
}
