import { createRoot, type Root } from 'react-dom/client';
import { unstableSetRender } from 'antd-mobile/es/utils/unstable-render';

// antd-mobile 5 renders its imperative toasts and dialogs with the React 18 `render` API, which
// React 19 removed; this is the adapter antd-mobile documents for React 19 ("v5-for-19").
const roots = new WeakMap<Element | DocumentFragment, Root>();

unstableSetRender((node, container) => {
  let root = roots.get(container);
  if (!root) {
    root = createRoot(container);
    roots.set(container, root);
  }
  root.render(node);
  return async () => {
    // Let the closing animation's last frame commit before the root goes away.
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    roots.delete(container);
  };
});
