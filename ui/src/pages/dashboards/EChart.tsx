// One echarts chart in a box that follows the colour scheme and its own width. echarts is loaded on
// first use (its own chunk), so the dashboard's numbers show before the charts' library arrives.
import { Box, Skeleton, useComputedColorScheme } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ErrorAlert } from '../../components/Feedback.tsx';

type Echarts = typeof import('./echarts.ts');
let loading: Promise<Echarts> | null = null;
const loadEcharts = () => {
  loading ??= import('./echarts.ts').catch((error) => {
    loading = null;
    throw error;
  });
  return loading;
};

export function EChart({ option, height = 260 }: { option: Record<string, unknown>; height?: number }) {
  const ref = useRef<HTMLDivElement>(null);
  const scheme = useComputedColorScheme('light');
  const [ready, setReady] = useState(false);
  const [error, setError] = useState<unknown>(null);

  useEffect(() => {
    let disposed = false;
    let chart: ReturnType<Echarts['init']> | undefined;
    let observer: ResizeObserver | undefined;
    loadEcharts()
      .then(({ init }) => {
        if (disposed || !ref.current) return;
        // The built-in dark theme, on the page's own background.
        chart = init(ref.current, scheme === 'dark' ? 'dark' : undefined, { renderer: 'svg' });
        chart.setOption(option);
        observer = new ResizeObserver(() => chart?.resize());
        observer.observe(ref.current);
        setReady(true);
      })
      .catch((e) => !disposed && setError(e));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart?.dispose();
    };
  }, [scheme, option]);

  if (error) return <ErrorAlert error={error} title="The chart could not be drawn" />;
  return (
    <Skeleton visible={!ready} animate={false}>
      <Box ref={ref} h={height} w="100%" />
    </Skeleton>
  );
}
