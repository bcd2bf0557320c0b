import type { StoreImageKey } from '@nadi/api/store';
import { Icon } from '../../../components/icon.tsx';
import nadiBox1 from '../images/nadi-box-1.svg';
import nadiBoxPro from '../images/nadi-box-pro.svg';
import nadiEdgeAi from '../images/nadi-edge-ai.svg';
import { cx } from '../../../lib/cx.ts';
import styles from './store.module.css';

// Product pictures ship with the app (docs/store.md: never a URL from the server); the server names
// one by its key. A key this build does not know (a newer server) shows a neutral placeholder.
const images: Record<StoreImageKey, string> = {
  'nadi-box-1': nadiBox1,
  'nadi-box-pro': nadiBoxPro,
  'nadi-edge-ai': nadiEdgeAi,
};

export function productImageUrl(key: string): string | null {
  return Object.hasOwn(images, key) ? images[key as StoreImageKey] : null;
}

/** A product's picture, 4:3; `alt` is its name (the picture is the product itself, not decoration). */
export function ProductImage({ imageKey, alt, className }: { imageKey: string; alt: string; className?: string }) {
  const url = productImageUrl(imageKey);
  const classes = cx(styles.productImage, className);
  if (!url) {
    return (
      <span className={cx(classes, styles.productImagePlaceholder)} role="img" aria-label={alt} data-testid="product-image-placeholder">
        <Icon name="cpu" size={36} />
      </span>
    );
  }
  return <img className={classes} src={url} alt={alt} width={400} height={300} decoding="async" />;
}
