import { CloseCircleOutlined, CloseOutlined, DownOutlined, HomeFilled, LeftOutlined, RightOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { mayClose } from './tabs/beforeClose';
import { closeTabs, keysToClose, type CloseScope, type Tab } from './tabs/model';
import { tabStore } from './tabs/store';

/** As in the original portal: each scroll arrow click moves the tab strip 240 px. */
export const TAB_SCROLL_STEP = 240;

const CONTEXT_ITEMS: { key: CloseScope; label: string }[] = [
  { key: 'self', label: '关闭当前' },
  { key: 'others', label: '关闭其他' },
  { key: 'left', label: '关闭左侧' },
  { key: 'right', label: '关闭右侧' },
  { key: 'all', label: '关闭全部' },
];

interface TabBarProps {
  tabs: readonly Tab[];
  activeKey: string;
  homeKey: string;
}

/** Opened pages: home first and fixed; close one/others/all; arrows; right-click menu. */
export default function TabBar({ tabs, activeKey, homeKey }: TabBarProps) {
  const navigate = useNavigate();
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    scroller.current?.querySelector<HTMLElement>('[data-active="true"]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [activeKey, tabs.length]);

  async function close(scope: CloseScope, key: string) {
    const keys = keysToClose(tabs, key, scope, homeKey);
    if (keys.length === 0 || !(await mayClose(keys))) return;
    const { tabs: remaining, next } = closeTabs(tabs, keys, homeKey, activeKey);
    // Navigate first, so the closed tab is never the current route without a tab.
    if (next) await navigate(next.path);
    tabStore.set(remaining);
  }

  const scroll = (direction: 1 | -1) => scroller.current?.scrollBy({ left: direction * TAB_SCROLL_STEP, behavior: 'smooth' });

  const contextMenu = (tab: Tab): MenuProps => ({
    items: CONTEXT_ITEMS.map((item) => ({
      ...item,
      disabled: keysToClose(tabs, tab.key, item.key, homeKey).length === 0,
    })),
    onClick: ({ key, domEvent }) => {
      domEvent.stopPropagation();
      void close(key as CloseScope, tab.key);
    },
  });

  return (
    <div className="shell-tabs">
      <Button className="shell-tabs__arrow" type="text" size="small" icon={<LeftOutlined />} aria-label="向左滚动" onClick={() => scroll(-1)} />
      <div className="shell-tabs__scroller" ref={scroller} role="tablist" aria-label="已打开的页面">
        {tabs.map((tab) => {
          const active = tab.key === activeKey;
          const fixed = tab.key === homeKey;
          return (
            <Dropdown key={tab.key} menu={contextMenu(tab)} trigger={['contextMenu']}>
              <div
                role="tab"
                aria-selected={active}
                tabIndex={active ? 0 : -1}
                data-active={active}
                data-tab-key={tab.key}
                className={`shell-tab${active ? ' shell-tab--active' : ''}`}
                onClick={() => !active && navigate(tab.path)}
                onKeyDown={(e) => {
                  // Arrows move between the open pages, as in any tab list.
                  if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
                  const next = tabs[tabs.indexOf(tab) + (e.key === 'ArrowLeft' ? -1 : 1)];
                  if (next) void navigate(next.path);
                }}
              >
                {fixed ? <HomeFilled className="shell-tab__home" /> : <span className="shell-tab__dot" />}
                <span className="shell-tab__title">{tab.title}</span>
                {!fixed && (
                  <CloseOutlined
                    className="shell-tab__close"
                    aria-label={`关闭${tab.title}`}
                    onClick={(e) => {
                      e.stopPropagation();
                      void close('self', tab.key);
                    }}
                  />
                )}
              </div>
            </Dropdown>
          );
        })}
      </div>
      <Button className="shell-tabs__arrow" type="text" size="small" icon={<RightOutlined />} aria-label="向右滚动" onClick={() => scroll(1)} />
      <Dropdown
        menu={{
          items: [
            { key: 'others', label: '关闭其他', icon: <CloseOutlined /> },
            { key: 'all', label: '关闭全部', icon: <CloseCircleOutlined /> },
          ],
          onClick: ({ key }) => void close(key as CloseScope, activeKey),
        }}
      >
        <Button className="shell-tabs__actions" type="text" size="small" data-testid="tab-actions">
          关闭操作 <DownOutlined />
        </Button>
      </Dropdown>
    </div>
  );
}
