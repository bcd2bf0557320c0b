import { useQuery } from '@tanstack/react-query';
import { cx } from '../lib/cx.ts';
import styles from './qr-code.module.css';

/** The QR library loads with this component's first render, never with the home route. */
async function drawQr(text: string): Promise<string> {
  const { toDataURL } = await import('qrcode');
  // Dark modules on white: every phone camera reads that contrast, whatever the page theme.
  return toDataURL(text, { margin: 1, width: 360, errorCorrectionLevel: 'M', color: { dark: '#070b12', light: '#ffffff' } });
}

interface Props {
  text: string;
  /** What the image shows, for screen readers. */
  alt: string;
  /** Shown instead when the code cannot be drawn. */
  failedText: string;
  testId?: string;
}

/** A QR code of `text` (an invite link, a deposit address), drawn in the browser. */
export function QrCode({ text, alt, failedText, testId }: Props) {
  const qr = useQuery({ queryKey: ['qr', text], queryFn: () => drawQr(text), staleTime: Infinity });
  if (qr.isPending) return <div className={cx(styles.qrCode, 'skeleton')} aria-busy="true" />;
  if (qr.isError) return <p className={cx(styles.qrCode, styles.qrCodeError)}>{failedText}</p>;
  return <img className={styles.qrCode} src={qr.data} alt={alt} width={180} height={180} data-testid={testId} />;
}
