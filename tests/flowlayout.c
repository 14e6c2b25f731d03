/*
 * flowlayout.c --
 *
 *	The authority for tests/flow.test's layout tests: a few flow
 *	attributes written the way the ibv_create_flow manual page does it,
 *	a packed struct of struct ibv_flow_attr followed by the spec
 *	structs, filled field by field with the values in network order.
 *	The compiler and <infiniband/verbs.h> decide every offset and size.
 *	For each case it prints the case's name, a space and its bytes in
 *	hex; the test compares them with [verbs::flow pack] of the same
 *	attributes written as a dict.
 *
 * Copyright (c) 2026 The verbs authors.
 * See the file "LICENSE" for terms of use and redistribution.
 */

#include <infiniband/verbs.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

static void
Print(
    const char *name,
    const void *p,
    size_t len)
{
    const unsigned char *b = p;
    size_t i;

    printf("%s ", name);
    for (i = 0; i < len; i++) {
	printf("%02x", b[i]);
    }
    printf("\n");
}

#define HEADER(s, t, n, prio, prt, flg) \
    memset(&(s), 0, sizeof(s)); \
    (s).attr.type = (t); \
    (s).attr.size = sizeof(s); \
    (s).attr.priority = (prio); \
    (s).attr.num_of_specs = (n); \
    (s).attr.port = (prt); \
    (s).attr.flags = (flg)
#define SPEC(s, m, t) \
    (s).m.type = (t); \
    (s).m.size = sizeof((s).m)

int
main(void)
{
    static const uint8_t mac1[6] = {0x02, 0x00, 0x00, 0x00, 0x00, 0x01};
    static const uint8_t macAll[6] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

    {
	/* eth, with a mask of its own for one field. */
	struct {
	    struct ibv_flow_attr attr;
	    struct ibv_flow_spec_eth eth;
	} __attribute__((packed)) s;

	HEADER(s, IBV_FLOW_ATTR_NORMAL, 1, 3, 2, 0);
	SPEC(s, eth, IBV_FLOW_SPEC_ETH);
	memcpy(s.eth.val.dst_mac, mac1, 6);
	memcpy(s.eth.mask.dst_mac, macAll, 6);
	s.eth.val.ether_type = htons(0x0800);
	s.eth.mask.ether_type = htons(0xffff);
	s.eth.val.vlan_tag = htons(5);
	s.eth.mask.vlan_tag = htons(0x0fff);
	Print("eth", &s, sizeof(s));
    }
    {
	/* ipv4, tcp and an inner udp. */
	struct {
	    struct ibv_flow_attr attr;
	    struct ibv_flow_spec_ipv4 ipv4;
	    struct ibv_flow_spec_tcp_udp tcp;
	    struct ibv_flow_spec_tcp_udp udp;
	} __attribute__((packed)) s;

	HEADER(s, IBV_FLOW_ATTR_NORMAL, 3, 0, 1,
		IBV_FLOW_ATTR_FLAGS_DONT_TRAP);
	SPEC(s, ipv4, IBV_FLOW_SPEC_IPV4);
	inet_pton(AF_INET, "192.0.2.1", &s.ipv4.val.src_ip);
	inet_pton(AF_INET, "255.255.255.255", &s.ipv4.mask.src_ip);
	inet_pton(AF_INET, "198.51.100.7", &s.ipv4.val.dst_ip);
	inet_pton(AF_INET, "255.255.255.0", &s.ipv4.mask.dst_ip);
	SPEC(s, tcp, IBV_FLOW_SPEC_TCP);
	s.tcp.val.dst_port = htons(4791);
	s.tcp.mask.dst_port = htons(0xffff);
	s.tcp.val.src_port = htons(1000);
	s.tcp.mask.src_port = htons(0xffff);
	SPEC(s, udp, IBV_FLOW_SPEC_UDP | IBV_FLOW_SPEC_INNER);
	s.udp.val.src_port = htons(53);
	s.udp.mask.src_port = htons(0xffff);
	Print("l3l4", &s, sizeof(s));
    }
    {
	/* ipv4_ext and ipv6, with an inner ipv6. */
	struct {
	    struct ibv_flow_attr attr;
	    struct ibv_flow_spec_ipv4_ext ipv4;
	    struct ibv_flow_spec_ipv6 ipv6;
	} __attribute__((packed)) s;

	HEADER(s, IBV_FLOW_ATTR_NORMAL, 2, 7, 1, 0);
	SPEC(s, ipv4, IBV_FLOW_SPEC_IPV4_EXT);
	inet_pton(AF_INET, "10.1.2.3", &s.ipv4.val.src_ip);
	inet_pton(AF_INET, "255.255.255.255", &s.ipv4.mask.src_ip);
	s.ipv4.val.proto = 17;
	s.ipv4.mask.proto = 0xff;
	s.ipv4.val.tos = 4;
	s.ipv4.mask.tos = 0xfc;
	s.ipv4.val.ttl = 64;
	s.ipv4.val.flags = 2;
	s.ipv4.mask.flags = 0xff;
	SPEC(s, ipv6, IBV_FLOW_SPEC_IPV6 | IBV_FLOW_SPEC_INNER);
	inet_pton(AF_INET6, "2001:db8::1", s.ipv6.val.src_ip);
	memset(s.ipv6.mask.src_ip, 0xff, 16);
	inet_pton(AF_INET6, "ff02::1:2", s.ipv6.val.dst_ip);
	memset(s.ipv6.mask.dst_ip, 0xff, 16);
	s.ipv6.val.flow_label = htonl(0x12345);
	s.ipv6.mask.flow_label = htonl(0xfffff);
	s.ipv6.val.next_hdr = 17;
	s.ipv6.mask.next_hdr = 0xff;
	s.ipv6.val.traffic_class = 3;
	s.ipv6.mask.traffic_class = 0xff;
	s.ipv6.val.hop_limit = 255;
	s.ipv6.mask.hop_limit = 0xff;
	Print("ip", &s, sizeof(s));
    }
    {
	/* The tunnel headers and esp. */
	struct {
	    struct ibv_flow_attr attr;
	    struct ibv_flow_spec_tunnel vxlan;
	    struct ibv_flow_spec_gre gre;
	    struct ibv_flow_spec_mpls mpls;
	    struct ibv_flow_spec_esp esp;
	} __attribute__((packed)) s;

	HEADER(s, IBV_FLOW_ATTR_NORMAL, 4, 1, 1, IBV_FLOW_ATTR_FLAGS_EGRESS);
	SPEC(s, vxlan, IBV_FLOW_SPEC_VXLAN_TUNNEL);
	s.vxlan.val.tunnel_id = htonl(0x123456);
	s.vxlan.mask.tunnel_id = htonl(0xffffff);
	SPEC(s, gre, IBV_FLOW_SPEC_GRE);
	s.gre.val.c_ks_res0_ver = htons(0x2000);
	s.gre.val.protocol = htons(0x6558);
	s.gre.mask.protocol = htons(0xffff);
	s.gre.val.key = htonl(7);
	s.gre.mask.key = htonl(0xffffffff);
	SPEC(s, mpls, IBV_FLOW_SPEC_MPLS | IBV_FLOW_SPEC_INNER);
	s.mpls.val.label = htonl(0x12345678);
	s.mpls.mask.label = htonl(0xfffff000);
	SPEC(s, esp, IBV_FLOW_SPEC_ESP);
	s.esp.val.spi = htonl(0x1000);
	s.esp.mask.spi = htonl(0xffffffff);
	s.esp.val.seq = htonl(9);
	Print("tunnel", &s, sizeof(s));
    }
    {
	/* Actions without objects, after an eth spec that matches all. */
	struct {
	    struct ibv_flow_attr attr;
	    struct ibv_flow_spec_eth eth;
	    struct ibv_flow_spec_action_tag tag;
	    struct ibv_flow_spec_action_drop drop;
	} __attribute__((packed)) s;

	HEADER(s, IBV_FLOW_ATTR_NORMAL, 3, 0, 1, 0);
	SPEC(s, eth, IBV_FLOW_SPEC_ETH);
	SPEC(s, tag, IBV_FLOW_SPEC_ACTION_TAG);
	s.tag.tag_id = 0x42;
	SPEC(s, drop, IBV_FLOW_SPEC_ACTION_DROP);
	Print("actions", &s, sizeof(s));
    }
    {
	/* Rules without specs. */
	struct ibv_flow_attr s;

	memset(&s, 0, sizeof(s));
	s.type = IBV_FLOW_ATTR_SNIFFER;
	s.size = sizeof(s);
	s.port = 1;
	Print("sniffer", &s, sizeof(s));
	s.type = IBV_FLOW_ATTR_MC_DEFAULT;
	s.port = 2;
	s.priority = 0xffff;
	Print("mc_default", &s, sizeof(s));
	s.type = IBV_FLOW_ATTR_ALL_DEFAULT;
	s.port = 255;
	s.priority = 0;
	Print("all_default", &s, sizeof(s));
    }

    /*
     * The action specs that point at objects: their sizes and where the
     * pointer is (the test checks them with real objects on a device that
     * has them).
     */

    printf("sizes %zu %zu %zu %zu %zu\n",
	    sizeof(struct ibv_flow_attr),
	    sizeof(struct ibv_flow_spec_action_handle),
	    offsetof(struct ibv_flow_spec_action_handle, action),
	    sizeof(struct ibv_flow_spec_counter_action),
	    offsetof(struct ibv_flow_spec_counter_action, counters));
    return 0;
}
