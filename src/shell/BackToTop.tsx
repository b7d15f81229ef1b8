import { FloatButton } from 'antd';
import type { RefObject } from 'react';

/** As in the original portal: shown after 100 px of scrolling; scrolls back in 1000 ms. */
export const BACK_TO_TOP_THRESHOLD = 100;
export const BACK_TO_TOP_DURATION = 1000;

export default function BackToTop({ target }: { target: RefObject<HTMLElement | null> }) {
  return (
    <FloatButton.BackTop visibilityHeight={BACK_TO_TOP_THRESHOLD} duration={BACK_TO_TOP_DURATION} target={() => target.current ?? window} tooltip="回到顶部" />
  );
}
